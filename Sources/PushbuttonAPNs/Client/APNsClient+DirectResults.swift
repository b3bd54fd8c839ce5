extension APNsClient {
    /// Sends every notification of `source` with at most `maximumInFlight` under way, handing each result
    /// (with its attempt count) to `onResult` on the thread where it completes: the transport's event loop,
    /// almost always, or the thread that read the notification when it fails before any request. Nothing
    /// crosses to a task between an answer and its result, so a caller that only writes results down (the
    /// CLI's bulk send) saves a thread hand-off per batch. On the event loop a result is handed on at the end
    /// of the loop's turn, once the requests its answer's read refilled are written, so the server works on
    /// them meanwhile; a later notification may therefore be taken from `source` before an earlier one's
    /// result is handed on. `onResult` must be quick and must not wait for
    /// the sender: while it runs, that connection's loop waits (the back-pressure of a slow consumer); with
    /// several connections it is called from several threads at once.
    ///
    /// Returns once every notification read has its result handed on. Cancelling the calling task ends the
    /// reading; what is under way finishes.
    package func send(
        polling source: any SynchronousNotificationSource, maximumInFlight: Int = 1000,
        onResult:
            @escaping @Sendable (_ notification: APNsNotification, _ result: APNsResult, _ attempts: Int) ->
            Void
    ) async {
        let pump = DirectBulkPump(source: source, client: self, window: maximumInFlight, onResult: onResult)
        // Input that comes while nothing is under way starts where it arrives.
        source.onAvailable { [weak pump] in pump?.refill() }
        await withTaskCancellationHandler {
            await pump.run()
        } onCancel: {
            pump.stopReading()
        }
    }
}
