import Pushbutton
import PushbuttonSupport

/// The compose form's text, one tab per language of the app: the default text (`title`, `subtitle`, `body`)
/// and each other language's (`localized`). The tabs are the radio buttons of the `locale` field, so the tab
/// chosen is also the preview's language; CSS shows the chosen tab's panel (no script needed, arrow keys move
/// between tabs as in any radio group).
enum LanguageTabs {
    static func render(
        _ form: ComposeForm, catalog: ConsoleCatalog, slot: (String) -> HTML, described: (String) -> HTML
    ) -> HTML {
        // The app's languages, those the form already has text in, and the one chosen (a link's ?locale=).
        var tabs = catalog.textLocales
        for locale in form.localized.keys.sorted() + [form.locale]
        where !tabs.contains(locale) && LocaleIdentifier(locale) != nil {
            tabs.append(locale)
        }
        let chosen = tabs.contains(form.locale) ? form.locale : catalog.defaultLocale
        var html: HTML = """
            <fieldset id="text" class="languages">
            <legend>Text, per language</legend>
            <p class="hint" id="text-help">Each device gets the language of its locale (de-CH falls back to de), \
            else the default text; a field left empty is the default's. The preview shows the chosen tab.</p>
            <div class="tabs">

            """
        for locale in tabs {
            let isDefault = locale == catalog.defaultLocale
            let id = "tab-" + locale
            html += """
                <div class="tab-item">
                <input type="radio" name="locale" value="\(locale)" id="\(id)"\(locale == chosen ? " checked" : "") \
                aria-controls="panel-\(locale)">
                <label class="tab" for="\(id)">\(isDefault ? "Default (\(locale))" : locale)</label>
                <div class="tab-panel" id="panel-\(locale)" data-locale="\(locale)">

                """
            if isDefault {
                html += fields(
                    ids: ("title", "subtitle", "body"), form.title, form.subtitle, form.body, slot, described)
            } else {
                let given = form.localized[locale] ?? [:]
                let names = (
                    ComposeForm.Field.localized(locale, "title"), ComposeForm.Field.localized(locale, "subtitle"),
                    ComposeForm.Field.localized(locale, "body")
                )
                html += fields(
                    ids: names, given["title"] ?? "", given["subtitle"] ?? "", given["body"] ?? "", slot, described,
                    placeholders: (form.title, form.subtitle, form.body))
                html += slot(ComposeForm.Field.localized(locale))
            }
            html += "</div>\n</div>\n"
        }
        html += "</div>\n</fieldset>\n"
        return html
    }

    /// A language's title, subtitle and body; another language's fields show the default text as placeholders.
    private static func fields(
        ids: (String, String, String), _ title: String, _ subtitle: String, _ body: String,
        _ slot: (String) -> HTML, _ described: (String) -> HTML, placeholders: (String, String, String)? = nil
    ) -> HTML {
        func placeholder(_ text: String?) -> HTML {
            guard let text, !text.isEmpty else { return "" }
            return " placeholder=\"\(text)\""
        }
        return """
            <label for="\(ids.0)">Title</label>
            <input type="text" id="\(ids.0)" name="\(ids.0)" value="\(title)"\(placeholder(placeholders?.0))\
            \(described(ids.0))>
            \(slot(ids.0))
            <label for="\(ids.1)">Subtitle</label>
            <input type="text" id="\(ids.1)" name="\(ids.1)" value="\(subtitle)"\(placeholder(placeholders?.1))\
            \(described(ids.1))>
            \(slot(ids.1))
            <label for="\(ids.2)">Body</label>
            <textarea id="\(ids.2)" name="\(ids.2)" rows="3" class="body"\(placeholder(placeholders?.2))\
            \(described(ids.2))>\(body)</textarea>
            \(slot(ids.2))

            """
    }
}
