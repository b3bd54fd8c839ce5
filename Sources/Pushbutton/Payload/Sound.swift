/// `aps.sound`: a sound file's name (or `default`), or the critical-alert dictionary.
public enum Sound: Sendable, Hashable {
    case named(String)
    /// `{"critical": 1, "name": …, "volume": 0…1}`.
    case critical(name: String, volume: Double?, isCritical: Bool)

    /// The system's default sound.
    public static let `default` = Sound.named("default")
}
