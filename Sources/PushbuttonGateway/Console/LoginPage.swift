import PushbuttonSupport

/// The sign-in page: one password field for an app's secret API key, posted (never put in a URL), never shown
/// back.
enum LoginPage {
    static func render(error: String? = nil) -> HTML {
        let message: HTML =
            error.map { "<p class=\"error-box\" role=\"alert\" id=\"login-error\">\($0)</p>" } ?? ""
        return ConsolePage.html(
            "Sign in", section: .login, session: nil,
            content: """
                <section class="panel login">
                \(message)
                <form method="post" action="/console/login">
                <label for="key">Secret API key of the app</label>
                <input type="password" id="key" name="key" autocomplete="current-password" required \
                aria-describedby="key-help">
                <p id="key-help" class="hint">The key the app's backend uses (<code>pb_sk_…</code>). It is checked \
                and forgotten: the session remembers only the app.</p>
                <div class="actions-bar"><button type="submit" class="primary">Sign in</button></div>
                </form>
                </section>
                """)
    }
}
