internal import CCurl

/// Sends prepared requests through one libcurl multi handle, whose connection cache keeps connections
/// alive between requests; each transfer gets its own easy handle, so several transfers can be added to the
/// same multi handle later (running N requests at once) without a redesign.
///
/// Not thread-safe: use one executor from one thread. Call `close()` (or drop the last reference) before
/// the process exits, so no handle outlives OpenSSL's exit-time cleanup.
public final class HTTPExecutor {
    private let options: ExecutorOptions
    private var multi: UnsafeMutableRawPointer?
    /// One cookie store for every transfer of the run (RFC 6265 engine of libcurl), shared through a share
    /// handle since each transfer has its own easy handle.
    private var share: UnsafeMutableRawPointer?
    private var loadedCookieJar = false

    public init(options: ExecutorOptions = ExecutorOptions()) {
        CurlGlobal.ensureInitialized()
        self.options = options
        self.multi = curl_multi_init()
        self.share = curl_share_init()
        _ = reqrun_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
    }

    deinit { close() }

    /// `curl_version()`'s text, for run records.
    public static var libcurlVersion: String { CurlGlobal.version }

    /// Releases the multi handle and its cached connections. Further `send` calls are a programming error.
    public func close() {
        if let multi { curl_multi_cleanup(multi) }
        multi = nil
        if let share { curl_share_cleanup(share) }
        share = nil
    }

    /// Sends `request` and waits for the whole response. Never throws: a transport failure is in
    /// `TransferResult.error` with libcurl's code and message.
    /// - Parameter inspectBody: keep up to `inspectLimit` bytes of the body in `TransferResult.body` (for
    ///   expectations and captures), rather than the record's `bodyLimit`.
    public func send(_ request: PreparedRequest, inspectBody: Bool = false) -> TransferResult {
        guard let multi else { preconditionFailure("HTTPExecutor used after close()") }
        let transfer = CurlTransfer(request: request, options: options,
                                    keepLimit: inspectBody ? max(options.inspectLimit, options.bodyLimit) : options.bodyLimit,
                                    share: share, loadCookieJar: !loadedCookieJar)
        loadedCookieJar = true
        defer { transfer.cleanUp() }
        if let failure = transfer.configure() {
            return transfer.result(code: failure)
        }
        curl_multi_add_handle(multi, transfer.easy)
        var running: Int32 = 1
        var code = CURLE_OK
        while running > 0 {
            let status = curl_multi_perform(multi, &running)
            if status != CURLM_OK {
                code = CURLE_FAILED_INIT
                break
            }
            if Interruption.requested {
                code = CURLE_ABORTED_BY_CALLBACK
                break
            }
            if running > 0 {
                // Sleeps until a socket is ready or 100 ms pass (curl's own timeouts fire inside perform; the
                // short wake-up lets Ctrl-C stop a slow transfer promptly).
                curl_multi_poll(multi, nil, 0, 100, nil)
            }
        }
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            if message.pointee.msg == CURLMSG_DONE, message.pointee.easy_handle == transfer.easy {
                code = message.pointee.data.result
            }
        }
        curl_multi_remove_handle(multi, transfer.easy)
        if code == CURLE_ABORTED_BY_CALLBACK, Interruption.requested {
            var result = transfer.result(code: code)
            result.response = nil
            result.error = ResultError(curlCode: Int(CURLE_ABORTED_BY_CALLBACK.rawValue), message: "interrupted (Ctrl-C)")
            return result
        }
        return transfer.result(code: code)
    }
}
