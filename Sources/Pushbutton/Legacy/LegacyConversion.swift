/// Converts iOS 8/9 categories to the modern (iOS 10+) model, saying what could not be carried over.
///
/// The modern API has one action list per category. The default context's list is kept; the minimal
/// list is used only when the default one is empty. When both are filled the minimal list is
/// dropped with a warning. Activation foreground becomes `.foreground`, destructive `.destructive`,
/// authentication required `.authenticationRequired`; a text-input behavior becomes a text-input
/// action, and one without a send-button title gets the localized "Send" and a warning.
public enum LegacyConversion {
    /// The converted category and the diagnostics of the conversion, with paths below `path`.
    public static func convert(_ legacy: LegacyCategory, at path: JSONPath = .root) -> (Category, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let context: LegacyCategory.Context = legacy.defaultActions.isEmpty ? .minimal : .default
        let chosen = legacy.actions(for: context)
        if !legacy.defaultActions.isEmpty && !legacy.minimalActions.isEmpty {
            let dropped = legacy.minimalActions.map(\.identifier).joined(separator: ", ")
            diagnostics.append(
                Diagnostic(
                    .warning, .legacyBothContexts, at: path.appending("minimalActions"),
                    "category '\(legacy.identifier)' has both a default and a minimal action list; the modern API "
                        + "keeps one, so the minimal list (\(dropped)) is dropped",
                    hint: "order the default list so its first two actions are the ones banners should show, "
                        + "then delete minimalActions"))
        }
        for contextToCheck in [LegacyCategory.Context.default, .minimal] {
            let actions = legacy.actions(for: contextToCheck)
            if actions.count > contextToCheck.shownActionLimit {
                diagnostics.append(
                    Diagnostic(
                        .note, .legacyContextLimit, at: path.appending(listKey(contextToCheck)),
                        "iOS 8/9 showed only \(contextToCheck.shownActionLimit) actions in the \(contextToCheck.rawValue) "
                            + "context; this list has \(actions.count)"))
            }
        }
        let listPath = path.appending(listKey(context))
        let actions = chosen.enumerated().map { index, action in
            convert(action, at: listPath.appending(index), diagnostics: &diagnostics)
        }
        return (Category(legacy.identifier, actions: actions), diagnostics)
    }

    /// Converts one legacy action, appending any warning to `diagnostics`.
    public static func convert(_ legacy: LegacyAction, at path: JSONPath, diagnostics: inout [Diagnostic]) -> Action {
        var options: ActionOptions = []
        if legacy.activationMode == .foreground { options.insert(.foreground) }
        if legacy.isDestructive { options.insert(.destructive) }
        if legacy.isAuthenticationRequired { options.insert(.authenticationRequired) }
        guard legacy.behavior == .textInput else {
            return Action(legacy.identifier, title: legacy.title, options: options)
        }
        let buttonTitle: LocalizedText
        if let title = legacy.parameters[LegacyAction.textInputButtonTitleKey], !title.isEmpty {
            buttonTitle = .literal(title)
        } else {
            buttonTitle = TextInput.defaultButtonTitle
            diagnostics.append(
                Diagnostic(
                    .warning, .legacyTextInputTitle, at: path,
                    "text-input action '\(legacy.identifier)' has no send-button title; using the localized \"Send\"",
                    hint: "set parameters.\(LegacyAction.textInputButtonTitleKey) to the title you want"))
        }
        return .textInput(legacy.identifier, title: legacy.title, buttonTitle: buttonTitle, options: options)
    }

    private static func listKey(_ context: LegacyCategory.Context) -> String {
        context == .default ? "defaultActions" : "minimalActions"
    }
}
