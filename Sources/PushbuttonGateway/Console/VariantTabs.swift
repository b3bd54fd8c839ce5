import Pushbutton
import PushbuttonPreview
import PushbuttonSupport

/// The compose page's preview of an experiment: one tab per variant, each with its own frame, drawn as the
/// language tabs are (radio buttons, CSS shows the chosen tab's panel: no script needed). The first variant's
/// frame keeps the id `preview`, which the script updates as you type, the others `preview-variant-N`.
enum VariantTabs {
    static func render(_ variants: [ComposeService.Check.VariantPreview], chosen: Int, locale: String) -> HTML {
        var html: HTML = "<div class=\"tabs variant-tabs\" role=\"group\" aria-label=\"Variants\">\n"
        for (index, variant) in variants.enumerated() {
            let id = "vtab-\(index)"
            html += """
                <div class="tab-item">
                <input type="radio" name="preview_variant" value="\(index)" id="\(id)"\
                \(index == chosen ? " checked" : "") aria-controls="vpanel-\(index)">
                <label class="tab" for="\(id)">Variant \(variant.name)</label>
                <div class="tab-panel" id="vpanel-\(index)" data-variant="\(variant.name)">
                \(ComposePage.frame(variant.preview, id: frameID(index), locale: locale))\
                </div>
                </div>

                """
        }
        return html + "</div>\n"
    }

    /// The id of variant `index`'s frame.
    static func frameID(_ index: Int) -> String { index == 0 ? "preview" : "preview-variant-\(index)" }
}
