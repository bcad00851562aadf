/// Receives the decoded content of each response as it arrives, whole (the record keeps only its first
/// `RunRecord.bodyLimit` bytes): `reqrun send --body` writes it to standard output as it comes, the way
/// curl writes a body without holding it.
///
/// `begin` is called once per transfer with the status code, before that transfer's first piece of content
/// (a transfer with empty content calls neither); `receive` with each piece in order. A request that is
/// redirected or retried is several transfers, so the caller decides what to keep of each (see
/// `BodyStream` in the CLI). Both are called on the thread that drives the transfers, never concurrently;
/// they must not throw or block for long.
public final class ResponseBodySink: @unchecked Sendable, Equatable {
    let begin: (_ status: Int) -> Void
    let receive: (UnsafeRawBufferPointer) -> Void

    public init(begin: @escaping (_ status: Int) -> Void, receive: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.begin = begin
        self.receive = receive
    }

    /// Two sinks are equal only when they are the same object.
    public static func == (lhs: ResponseBodySink, rhs: ResponseBodySink) -> Bool { lhs === rhs }
}
