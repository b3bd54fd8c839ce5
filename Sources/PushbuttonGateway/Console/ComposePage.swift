import Pushbutton
import PushbuttonPreview
import PushbuttonSupport

/// The compose page: the form on the left, the live preview on the right (below on a phone). Each field has
/// a slot for its diagnostics (`diag-FIELD`); the script fills them as you type, the server when it posts.
enum ComposePage {
    /// What the page shows besides the form: a sent notice, or why sending was refused.
    struct Status {
        var notice: String?
        var error: String?
        /// The audience builder's count, when the server counted it (the "Count" button without the script).
        var devices: Int?
    }

    static func render(
        _ form: ComposeForm, catalog: ConsoleCatalog, session: ConsoleSession, check: ComposeService.Check,
        idempotencyKey: String, status: Status = Status(), savedSegments: [String] = []
    ) -> HTML {
        let byField = check.byField
        func slot(_ field: String) -> HTML {
            "<div class=\"diag\" id=\"diag-\(field)\" aria-live=\"polite\">\(ConsolePage.diagnostics(byField[field] ?? []))</div>"
        }
        func invalid(_ field: String) -> HTML {
            (byField[field] ?? []).containsErrors ? " aria-invalid=\"true\"" : ""
        }
        func described(_ field: String) -> HTML {
            " data-field=\"\(field)\" aria-describedby=\"diag-\(field)\"\(invalid(field))"
        }
        let category = catalog.category(form.category)
        var html: HTML = ""
        if let notice = status.notice { html += "<p class=\"notice\" role=\"status\" id=\"notice\">\(notice)</p>\n" }
        if let error = status.error {
            html += "<p class=\"error-box\" role=\"alert\" id=\"send-error\">\(error)</p>\n"
        }
        html += """
            <form id="compose" method="post" action="/console/compose" enctype="multipart/form-data">
            <input type="hidden" name="csrf" value="\(session.csrfToken)">
            <input type="hidden" name="idempotency" value="\(idempotencyKey)">
            <button type="submit" name="intent" value="preview" class="sr-only" tabindex="-1" aria-hidden="true">\
            Update preview</button>
            <div class="columns">
            <section class="panel" aria-label="Notification">
            \(slot("form"))
            <label for="category">Category</label>
            <select id="category" name="category"\(described("category"))>
            """
        for option in catalog.categories {
            let count = option.actions.count
            html +=
                "<option value=\"\(option.identifier)\"\(option.identifier == form.category ? " selected" : "")>"
                + "\(option.identifier) (\(count) button\(count == 1 ? "" : "s"))</option>\n"
        }
        html += """
            </select>
            \(slot("category"))
            \(LanguageTabs.render(form, catalog: catalog, slot: slot, described: described))
            <label for="media_url">Media (optional)</label>
            <input type="url" id="media_url" name="media_url" value="\(form.mediaURL)" placeholder="https://…"\(described("media"))>
            <select id="media_type" name="media_type" aria-label="Media type">

            """
        for kind in ["image", "gif", "video", "audio"] {
            html += "<option value=\"\(kind)\"\(kind == form.mediaType ? " selected" : "")>\(kind)</option>\n"
        }
        html += """
            </select>
            \(slot("media"))
            <fieldset>
            <legend>Buttons</legend>

            """
        let actions = category?.actions ?? []
        if actions.isEmpty { html += "<p>This category has no buttons.</p>\n" }
        for action in actions {
            let id = action.identifier
            let chosen = form.actions[id]
            var traits: [String] = []
            if action.options.contains(.foreground) {
                traits.append("opens the app")
            } else {
                traits.append("background")
            }
            if action.options.contains(.destructive) { traits.append("destructive") }
            if action.options.contains(.authenticationRequired) { traits.append("needs unlock") }
            if action.textInput != nil { traits.append("text input") }
            html += """
                <div class="button-row" id="row-\(id)">
                <h3>\(action.title.resolved(for: form.locale, fallbackLocale: catalog.defaultLocale)) \
                <span class="traits">(\(id) · \(traits.joined(separator: ", ")))</span></h3>
                <label for="action.\(id)">Action when tapped</label>
                \(builtinActions(
                    field: "action.\(id)", chosen: chosen?.action, summaries: true,
                    described: described(ComposeForm.Field.button(id))))
                <label for="args.\(id)">Its arguments (JSON object)</label>
                <textarea id="args.\(id)" name="args.\(id)" rows="2" spellcheck="false" \
                placeholder="{&quot;url&quot;: &quot;https://api.example.com/…&quot;}"\
                \(described(ComposeForm.Field.button(id)))>\(chosen?.arguments ?? "")</textarea>
                \(slot(ComposeForm.Field.button(id)))
                </div>

                """
        }
        html += """
            </fieldset>
            <label for="action_args">action_args: values for the app's handlers (JSON object)</label>
            <textarea id="action_args" name="action_args" rows="2" spellcheck="false" \
            placeholder="{&quot;message_id&quot;: 42}"\(described("action_args"))>\(form.actionArguments)</textarea>
            \(slot("action_args"))
            <fieldset>
            <legend>Send to</legend>
            <div class="radios">

            """
        let audiences: [(ComposeForm.Audience, String)] = [
            (.token, "A test device"), (.user, "A user"), (.tag, "A tag"), (.segment, "An audience (campaign)"),
            (.list, "A recipient list (campaign)"),
        ]
        for (audience, label) in audiences {
            html +=
                "<label><input type=\"radio\" name=\"to\" value=\"\(audience.rawValue)\" id=\"to-\(audience.rawValue)\""
                + "\(form.audience == audience ? " checked" : "")> \(label)</label>\n"
        }
        html += """
            </div>
            <label for="to_token">Device token (64 hex digits)</label>
            <input type="text" id="to_token" name="to_token" value="\(form.token)" spellcheck="false" \
            autocomplete="off" inputmode="latin"\(described("to"))>
            <label for="to_user">User id</label>
            <input type="text" id="to_user" name="to_user" value="\(form.user)"\(described("to"))>
            <label for="to_tag">Tag</label>
            <input type="text" id="to_tag" name="to_tag" value="\(form.tag)"\(described("to"))>
            \(slot("to"))
            <label for="recipients">Recipient list: one token, or one JSON recipient, per line</label>
            <input type="file" id="recipients" name="recipients" accept=".txt,.ndjson,.jsonl,text/plain"\
            \(described("recipients"))>
            \(slot("recipients"))
            </fieldset>
            \(form.builder.render(savedNames: savedSegments, devices: status.devices, slot: slot, described: described))
            \(form.timing.render(slot: slot, described: described))
            \(form.experiment.render(catalog: catalog, locale: form.locale, slot: slot, described: described))
            <div class="actions-bar">
            <button type="submit" name="intent" value="preview" id="update-preview">Update preview</button>
            <button type="submit" name="intent" value="send" class="primary" id="send">Send</button>
            </div>
            </section>
            <section class="panel preview-panel" aria-labelledby="preview-heading">
            <h2 id="preview-heading">Preview (<span id="preview-locale">\(form.locale)</span>)</h2>

            """
        if check.variants.count > 1 {
            html += VariantTabs.render(check.variants, chosen: form.experiment.previewed, locale: form.locale)
        } else {
            html += frame(check.preview, id: "preview", locale: form.locale)
        }
        html += """
            </section>
            </div>
            </form>
            """
        return ConsolePage.html("Compose", section: .compose, session: session, content: html)
    }

    /// The `<select>` named `field` of the built-in actions a button may run, `chosen` selected; its first option
    /// is none (the app handles the tap). `summaries` adds what each action does after its name.
    static func builtinActions(field: String, chosen: String?, summaries: Bool, described: HTML) -> HTML {
        var html: HTML = """
            <select id="\(field)" name="\(field)"\(described)>
            <option value="">The app handles it (no built-in action)</option>

            """
        for builtin in BuiltinAction.all {
            let selected: HTML = chosen == builtin.name ? " selected" : ""
            let summary: HTML = summaries ? " — \(builtin.summary)" : ""
            html += "<option value=\"\(builtin.name)\"\(selected)>\(builtin.name)\(summary)</option>\n"
        }
        return html + "</select>"
    }

    /// The preview's frame: how iOS shows the notification, or the placeholder while the form has errors.
    static func frame(_ preview: NotificationPreview?, id: String, locale: String) -> HTML {
        guard let preview else {
            return "<iframe id=\"\(id)\" class=\"preview\" sandbox=\"allow-same-origin\" title=\"Preview\" "
                + "srcdoc=\"\(Self.previewPlaceholder)\"></iframe>\n"
        }
        let page = HTMLPreviewRenderer.render(preview, locale: locale)
        return "<iframe id=\"\(id)\" class=\"preview\" sandbox=\"allow-same-origin\" "
            + "title=\"How iOS shows it: the banner, then the expanded notification with its buttons\" "
            + "srcdoc=\"\(page)\"></iframe>\n"
    }

    /// The preview endpoint's answer: the preview page and the diagnostics with the field each is about.
    static func previewJSON(_ check: ComposeService.Check, locale: String) -> JSONValue {
        var object: [String: JSONValue] = [
            "diagnostics": .array(
                check.diagnostics.map { diagnostic in
                    var item: [String: JSONValue] = [
                        "field": .string(ComposeForm.field(of: diagnostic.path)),
                        "severity": .string(diagnostic.severity.rawValue), "message": .string(diagnostic.message),
                        "path": .string(diagnostic.path.description), "code": .string(diagnostic.code.rawValue),
                    ]
                    if let hint = diagnostic.hint { item["hint"] = .string(hint) }
                    return .object(item)
                })
        ]
        if let preview = check.preview {
            object["html"] = .string(HTMLPreviewRenderer.render(preview, locale: locale))
            object["svg"] = .string(SVGPreviewRenderer.render(preview))
            object["buttons"] = .integer(Int64(preview.buttons.count))
        }
        if check.variants.count > 1 {
            // Each variant's page for its tab's frame (`preview-variant-N`; the first is `preview`).
            object["variants"] = .array(
                check.variants.map { variant in
                    var item: [String: JSONValue] = ["name": .string(variant.name)]
                    if let preview = variant.preview {
                        item["html"] = .string(HTMLPreviewRenderer.render(preview, locale: locale))
                    }
                    return .object(item)
                })
        }
        return .object(object)
    }

    /// The audience count endpoint's answer: `{"devices": N}`, or `{"devices": null}` with why and the
    /// diagnostics by field. An audience being built is often incomplete: that is a `200` (the page shows it), not
    /// an error the browser logs; a store that cannot count keeps its own status.
    static func countResponse(_ counted: Result<Int, GatewayError>) -> HTTPResponse {
        switch counted {
        case .success(let devices):
            return .json(200, .object(["devices": .integer(Int64(devices))]))
        case .failure(let error):
            let problems = error.diagnostics.map { diagnostic -> JSONValue in
                .object([
                    "field": .string(ComposeForm.field(of: diagnostic.path)), "message": .string(diagnostic.message),
                ])
            }
            return .json(
                error.status == 422 ? 200 : error.status,
                .object([
                    "devices": .null, "error": .string(error.diagnostics.first?.message ?? error.message),
                    "diagnostics": .array(problems),
                ]))
        }
    }

    /// The frame's page before the form has a preview: markup, escaped as the `srcdoc` attribute's text.
    private static let previewPlaceholder: String =
        "<p style=\"font:15px sans-serif;color:#fff;padding:16px\">Fix the errors to see the preview.</p>"
}
