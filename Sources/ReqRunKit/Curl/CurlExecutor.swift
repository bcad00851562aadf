import Foundation
internal import CCurl

/// Sends prepared requests through one libcurl multi handle. Its connection cache keeps connections alive
/// between requests, and several transfers can be in flight at once: HTTP/1.1 opens a connection per
/// transfer in flight (reused afterwards), HTTP/2 multiplexes them on one connection (`CURLOPT_PIPEWAIT`).
///
/// Use: `start` transfers with a tag, then `waitForCompletions` until each tag came back; `send` does both
/// for one request. Not thread-safe: use one executor from one thread. Call `close()` (or drop the last
/// reference) before the process exits, so no handle outlives OpenSSL's exit-time cleanup.
public final class HTTPExecutor {
    private let options: ExecutorOptions
    private var multi: UnsafeMutableRawPointer?
    /// One cookie store for every transfer of the run (RFC 6265 engine of libcurl), shared through a share
    /// handle since each transfer has its own easy handle.
    private var share: UnsafeMutableRawPointer?
    private var loadedCookieJar = false
    /// Transfers in flight by tag.
    private var inFlight: [Int: CurlTransfer] = [:]
    /// The tag of each transfer in flight by its easy handle, for `curl_multi_info_read`'s messages (a search
    /// of `inFlight` per finished transfer went through up to `--parallel` entries).
    private var tagOfHandle: [UnsafeMutableRawPointer: Int] = [:]
    /// Transfers that finished before being added (a configuration failure), reported by the next wait.
    private var finishedEarly: [(tag: Int, result: TransferResult)] = []
    /// Easy handles of finished transfers, reset and reused: creating one per request showed in profiles.
    private var idleHandles: [UnsafeMutableRawPointer] = []
    /// Header fields of earlier transfers, reused for identical header bytes.
    private let headerCache = HeaderFieldCache()

    /// With `ExecutorOptions.keepsCookieStore`: the store's cookies (expired ones left out) when `close()` ran.
    public private(set) var cookiesAtClose: [StoredCookie]?

    /// The share handle holding the cookie store (`CurlCookieStore`); nil once closed.
    var cookieShare: UnsafeMutableRawPointer? { share }

    public init(options: ExecutorOptions = ExecutorOptions()) {
        CurlGlobal.ensureInitialized()
        self.options = options
        self.multi = curl_multi_init()
        self.share = curl_share_init()
        _ = reqrun_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
        for stored in options.initialCookies { storeCookie(stored.cookie, hostOnly: stored.hostOnly) }
    }

    deinit { close() }

    /// Starts `curl_global_init` and OpenSSL's set-up on a thread of their own and returns at once, so that
    /// they overlap with loading the workspace (together about 2 ms of a run's start), and reads libcurl's
    /// version for the record (OpenLDAP loads its SASL plugins then, another 1.5–4 ms). Call only when requests will be sent: `--version`, `list` and dry
    /// runs never initialise libcurl. The first executor waits for whatever is not done yet; call
    /// `awaitPreparation()` before the process exits (exiting during OpenSSL's set-up is not safe).
    public static func prepareInBackground() {
        DispatchQueue.global(qos: .userInitiated).async(group: preparation) {
            CurlGlobal.ensureInitialized()
            Digest.warmUp()
            _ = CurlGlobal.version
        }
    }

    /// Waits until what `prepareInBackground` started is done (at once if nothing was started).
    public static func awaitPreparation() { preparation.wait() }

    private static let preparation = DispatchGroup()

    /// `curl_version()`'s text, for run records.
    public static var libcurlVersion: String { CurlGlobal.version }

    /// How many transfers are in flight.
    public var activeTransfers: Int { inFlight.count + finishedEarly.count }

    /// Abandons transfers in flight and releases the multi handle and its cached connections.
    public func close() {
        for transfer in inFlight.values {
            curl_multi_remove_handle(multi, transfer.easy)
            transfer.cleanUp()
            curl_easy_cleanup(transfer.easy)
        }
        inFlight = [:]
        tagOfHandle = [:]
        for easy in idleHandles { curl_easy_cleanup(easy) }
        idleHandles = []
        if options.keepsCookieStore, share != nil {
            cookiesAtClose = storedCookiesWithScope().map { StoredCookie($0.cookie, hostOnly: $0.hostOnly) }
        }
        // libcurl writes a cookie jar when a handle with CURLOPT_COOKIEJAR is cleaned up; reused handles were
        // reset, so one handle attached to the shared store writes the run's cookies once, here.
        if let jar = options.cookieJarFile, let share, let writer = curl_easy_init() {
            _ = reqrun_easy_setopt_pointer(writer, CURLOPT_SHARE, share)
            _ = reqrun_easy_setopt_string(writer, CURLOPT_COOKIEFILE, "")
            _ = reqrun_easy_setopt_string(writer, CURLOPT_COOKIEJAR, jar)
            curl_easy_cleanup(writer)
        }
        if let multi { curl_multi_cleanup(multi) }
        multi = nil
        if let share { curl_share_cleanup(share) }
        share = nil
    }

    /// Sends `request` and waits for the whole response. Never throws: a transport failure is in
    /// `TransferResult.error` with libcurl's code and message.
    /// - Parameter inspectBody: keep up to `inspectLimit` bytes of the body in `TransferResult.body` (for
    ///   expectations and captures), rather than the record's `bodyLimit`.
    /// Only when nothing else is in flight (it would drop other transfers' results).
    public func send(_ request: PreparedRequest, inspectBody: Bool = false) -> TransferResult {
        precondition(activeTransfers == 0, "send(_:) with transfers in flight")
        let tag = 0
        start(request, inspectBody: inspectBody, tag: tag)
        while true {
            for (doneTag, result) in waitForCompletions(timeoutMilliseconds: 100) where doneTag == tag { return result }
        }
    }

    /// Sends `request` and waits for its whole response while other transfers may be in flight (a script's
    /// `pm.sendRequest`): those that finish meanwhile are kept for the next `waitForCompletions`.
    public func sendAside(_ request: PreparedRequest, inspectBody: Bool) -> TransferResult {
        asideTag -= 1
        let tag = asideTag
        // Its body is the script's, not the request's whose content `bodySink` streams (`reqrun send`).
        var own = options
        own.bodySink = nil
        start(request, inspectBody: inspectBody, tag: tag, options: own)
        var others: [(tag: Int, result: TransferResult)] = []
        defer { finishedEarly += others }
        while true {
            for done in waitForCompletions(timeoutMilliseconds: 100) {
                if done.tag == tag { return done.result }
                others.append(done)
            }
        }
    }

    /// Tags of `sendAside` transfers: negative, never a position.
    private var asideTag = Int.min / 2

    /// Starts `request`; its result comes back from `waitForCompletions` under `tag` (unique among the
    /// transfers in flight).
    public func start(_ request: PreparedRequest, inspectBody: Bool, tag: Int) {
        start(request, inspectBody: inspectBody, tag: tag, options: options)
    }

    private func start(_ request: PreparedRequest, inspectBody: Bool, tag: Int, options: ExecutorOptions) {
        guard let multi else { preconditionFailure("HTTPExecutor used after close()") }
        let easy = idleHandles.popLast() ?? curl_easy_init()!
        let transfer = CurlTransfer(easy: easy, request: request, options: options,
                                    keepLimit: inspectBody ? max(options.inspectLimit, options.bodyLimit) : options.bodyLimit,
                                    share: share, loadCookieJar: !loadedCookieJar, headerCache: headerCache)
        loadedCookieJar = loadedCookieJar || request.disableCookies != true
        if let failure = transfer.configure() {
            finishedEarly.append((tag, transfer.result(code: failure)))
            recycle(transfer)
            return
        }
        inFlight[tag] = transfer
        tagOfHandle[transfer.easy] = tag
        curl_multi_add_handle(multi, transfer.easy)
    }

    /// Lets libcurl send what was started since the last call (one `curl_multi_perform`), without waiting;
    /// transfers that finish meanwhile are reported by the next `waitForCompletions`.
    public func sendStarted() {
        guard let multi, !inFlight.isEmpty, !Interruption.requested else { return }
        var running: Int32 = 0
        _ = curl_multi_perform(multi, &running)
    }

    /// Drives the transfers until at least one finishes or `timeoutMilliseconds` pass, and returns those
    /// that finished. On Ctrl-C (see `Interruption`) every transfer in flight ends as "interrupted".
    /// - Parameter whileWaiting: called when no transfer is ready instead of sleeping, as long as it returns
    ///   true (it did a piece of deferred work); the sockets are checked again after each call.
    public func waitForCompletions(timeoutMilliseconds: Int, whileWaiting: () -> Bool = { false }) -> [(tag: Int, result: TransferResult)] {
        var done = finishedEarly
        finishedEarly = []
        guard let multi, !inFlight.isEmpty else { return done }
        let deadline = ContinuousClock.now + .milliseconds(timeoutMilliseconds)
        while done.isEmpty {
            var running: Int32 = 0
            if curl_multi_perform(multi, &running) != CURLM_OK || Interruption.requested {
                let code = Interruption.requested ? CURLE_ABORTED_BY_CALLBACK : CURLE_FAILED_INIT
                return done + inFlight.keys.sorted().map { ($0, finish($0, code: code)) }
            }
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                      let tag = tagOfHandle[easy] else { continue }
                done.append((tag, finish(tag, code: message.pointee.data.result)))
            }
            if !done.isEmpty || ContinuousClock.now >= deadline { break }
            if whileWaiting() { continue }
            // Sleeps until a socket is ready or at most 100 ms (curl's own timeouts fire inside perform;
            // the short wake-up lets Ctrl-C stop a slow transfer promptly).
            curl_multi_poll(multi, nil, 0, 100, nil)
        }
        return done
    }

    /// Frees the transfer's allocations and keeps its easy handle, reset to defaults, for the next one.
    private func recycle(_ transfer: CurlTransfer) {
        transfer.cleanUp()
        // `curl_easy_reset` keeps the handle's list of cookie files, and each transfer's `CURLOPT_COOKIEFILE ""`
        // added a node to it (libcurl 7.88's setopt.c: two small allocations a request, never freed: most of a
        // long run's growth, see docs/performance.md). NULL empties the list; the shared store keeps its cookies.
        _ = reqrun_easy_setopt_string(transfer.easy, CURLOPT_COOKIEFILE, nil)
        curl_easy_reset(transfer.easy)
        idleHandles.append(transfer.easy)
    }

    private func finish(_ tag: Int, code: CURLcode) -> TransferResult {
        let transfer = inFlight.removeValue(forKey: tag)!
        tagOfHandle[transfer.easy] = nil
        defer { recycle(transfer) }
        curl_multi_remove_handle(multi, transfer.easy)
        var result = transfer.result(code: code)
        if code == CURLE_ABORTED_BY_CALLBACK, Interruption.requested {
            result.response = nil
            result.error = ResultError(curlCode: Int(CURLE_ABORTED_BY_CALLBACK.rawValue), message: Interruption.reason)
        }
        return result
    }
}
