/// A transport that reports its connections' events (opened, closed, failed, GOAWAY) to observers.
/// ``APNsClient`` and ``APNsChannels`` attach theirs when the transport is one.
protocol ObservableTransport: APNsTransport {
    func attach(_ observer: any APNsObserver)
}
