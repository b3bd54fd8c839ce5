// How notifications arriving in the foreground are shown: once for all, or per notification.
import PushbuttonReceiver
import PushbuttonUserNotifications

// snippet.hide
#if !os(tvOS)
    // snippet.show
    let center = SystemNotificationCenter(
        foregroundPresentation: ForegroundPresentation(defaultOptions: [.banner, .list]) { notification in
            notification.categoryIdentifier == "chat" ? [.banner, .sound] : nil  // nil: the default decides
        })
// snippet.hide
#endif
