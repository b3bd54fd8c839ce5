#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// glibc's `posix_spawn` file actions that Swift's Glibc module does not show (they are declared only under
/// `_GNU_SOURCE`), looked up once by name. Both exist since glibc 2.34 (Debian 12 has 2.36).
enum SpawnExtensions {
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private typealias ChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32

    private static let closeFrom: CloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    private static let changeDirectory: ChangeDirectory? = symbol("posix_spawn_file_actions_addchdir_np")

    /// Adds "close every descriptor from `lowest` up" to `actions`; ENOSYS where the C library lacks it.
    static func addCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) -> Int32 {
        guard let closeFrom else { return ENOSYS }
        return closeFrom(&actions, lowest)
    }

    /// Adds "change to `path`" to `actions`; ENOSYS where the C library lacks it.
    static func addChangeDirectory(_ actions: inout posix_spawn_file_actions_t, _ path: String) -> Int32 {
        guard let changeDirectory else { return ENOSYS }
        return changeDirectory(&actions, path)
    }

    private static func symbol<Function>(_ name: String) -> Function? {
        #if canImport(Glibc)
            guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
            return unsafeBitCast(address, to: Function.self)
        #else
            return nil
        #endif
    }
}
