/// Pushbutton's per-button actions, under the payload's `pushbutton` key (format version 1):
///
/// ```json
/// "pushbutton": {
///   "v": 1,
///   "buttons": { "like": [{"action": "pushbutton.callback", "args": {"url": "https://api.example.com/like"}}] },
///   "body": [{"action": "pushbutton.deeplink", "args": {"url": "chatter://message/42"}}],
///   "dismiss": [{"action": "mark_seen", "args": {"id": 42}}],
///   "define": [{"id": "yes", "title": "Yes", "options": ["foreground"]}],
///   "id": "n_3f2a…", "campaign": "c_91b0…",
///   "media": {"url": "https://cdn.example.com/sale.jpg", "type": "image"}
/// }
/// ```
///
/// `buttons` maps a button identifier of the payload's category to the actions its tap runs, in order;
/// `body` runs on a tap of the notification itself, `dismiss` when it is dismissed (only reported for
/// categories with `customDismissAction`). `define` carries dynamic buttons (see ``DynamicButton``). `id` and
/// `campaign` are the gateway's tracking ids (``notificationID``, ``campaignID``), which a device reports with each tap.
public struct PayloadActions: Sendable, Hashable {
    /// The format version this Pushbutton writes and reads.
    public static let currentVersion = 1

    /// The format version the payload declares (``currentVersion`` when written by this Pushbutton).
    public var version: Int
    /// Actions per button identifier.
    public var buttons: [String: [ActionSpec]]
    /// Actions for a tap on the notification's body.
    public var body: [ActionSpec]
    /// Actions for a dismissal.
    public var dismiss: [ActionSpec]
    /// Buttons defined by the payload itself, registered on the fly as a derived category.
    public var dynamicButtons: [DynamicButton]
    /// Keys this version does not know, kept so a payload passes through unchanged.
    public var extra: [String: JSONValue]
    /// `id`: the notification id the gateway gave this notification, so a tap can be joined to its send.
    public var notificationID: String?
    /// `campaign`: the campaign it belongs to; absent for a notification outside a campaign.
    public var campaignID: String?
    /// `media`: an image, GIF, video or sound the service extension downloads and shows beside the buttons.
    public var media: PayloadMedia?

    /// Creates the `pushbutton` dictionary; empty lists and `nil` ids are left out when written.
    public init(
        version: Int = PayloadActions.currentVersion, buttons: [String: [ActionSpec]] = [:], body: [ActionSpec] = [],
        dismiss: [ActionSpec] = [], dynamicButtons: [DynamicButton] = [], extra: [String: JSONValue] = [:],
        notificationID: String? = nil, campaignID: String? = nil, media: PayloadMedia? = nil
    ) {
        self.version = version
        self.buttons = buttons
        self.body = body
        self.dismiss = dismiss
        self.dynamicButtons = dynamicButtons
        self.extra = extra
        self.notificationID = notificationID
        self.campaignID = campaignID
        self.media = media
    }

    /// Whether no action and no button is set.
    public var isEmpty: Bool { buttons.isEmpty && body.isEmpty && dismiss.isEmpty && dynamicButtons.isEmpty }
}
