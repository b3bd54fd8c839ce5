// libFuzzer entry point for the manifest reader. Built by `make fuzz` together with the sources of the
// Pushbutton module (one module, so internal code is reachable): any input must give diagnostics, never
// a crash, a hang or a sanitizer report.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let result = Manifest.parse(bytes)
    if let manifest = result.manifest {
        // Whatever was read must write back out and read again without trapping.
        let written = JSONWriter.compact(manifest.manifestJSON)
        _ = Manifest.parse(written)
        _ = manifest.categorySet()
    }
    return 0
}
