import Foundation
internal import CCurl

/// One request on one easy handle: sets the options, collects the response through callbacks (context via
/// `Unmanaged`), and reads `CURLINFO_*` when done. Owns every C allocation the handle points at (header
/// list, error buffer) until `cleanUp()`, because libcurl does not copy them.
final class CurlTransfer {
    let easy: UnsafeMutableRawPointer
    private let request: PreparedRequest
    private let options: ExecutorOptions
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// A multipart body built with curl's MIME API (`curl_mime_free` after the handle is gone).
    private var mime: OpaquePointer?
    /// The file a `bodyFile` is streamed from.
    private var uploadFile: FileHandle?
    /// Multipart file parts, opened (and checked) by reqrun; libcurl reads each through `/dev/fd/N`.
    private var partFiles: [Int32] = []
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    // Filled by the callbacks.
    private let hasher = SHA256Hasher()
    private var bodyPrefix: [UInt8] = []
    private var bodySize = 0
    /// Whether `options.bodySink` was told this transfer's status.
    private var sinkBegan = false
    private var responseHeaders: [HeaderField] = []
    private var reasonPhrase = ""
    private var sentHeaders: [HeaderField] = []
    /// How many body bytes to hold in memory.
    private let keepLimit: Int

    private let share: UnsafeMutableRawPointer?
    private let loadCookieJar: Bool
    /// The executor's fields parsed from earlier transfers' identical header bytes.
    private let headerCache: HeaderFieldCache
    /// Bytes of content as they came off the wire (before content decoding), counted in the debug callback.
    private var wireBytes = 0

    // Limits checked inside the callbacks. libcurl checks CURLOPT_TIMEOUT_MS only between reads, and one read
    // of a compressed body can decode to gigabytes in a single callback loop (1 KB of `zstd, gzip` is 32 GiB),
    // so the write callback checks time, size and Ctrl-C/SIGTERM itself and aborts with a short count.
    private let startedAt = ContinuousClock.now
    /// The transfer's time limit in milliseconds (0: none).
    private let timeLimit: Int
    /// Why a callback stopped the transfer: the result reports it instead of libcurl's generic code.
    private var stopped: ResultError?
    /// The values of the `Content-Length` fields of the header block being read, and whether it has a
    /// `Transfer-Encoding` (which overrides them, RFC 9112 §6.3).
    private var contentLengths: [String] = []
    private var hasTransferEncoding = false
    /// True from a status line to the empty line that ends its header block.
    private var readingHeaderBlock = false

    /// - Parameter easy: a fresh or reset easy handle; the caller owns it (the executor keeps a pool).
    init(easy: UnsafeMutableRawPointer, request: PreparedRequest, options: ExecutorOptions, keepLimit: Int,
         share: UnsafeMutableRawPointer?, loadCookieJar: Bool, headerCache: HeaderFieldCache) {
        self.request = request
        self.headerCache = headerCache
        self.options = options
        self.keepLimit = keepLimit
        self.share = share
        self.loadCookieJar = loadCookieJar
        self.easy = easy
        self.timeLimit = request.timeoutMilliseconds ?? options.timeoutMilliseconds
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    /// Frees what the transfer allocated; the easy handle goes back to its owner.
    func cleanUp() {
        curl_mime_free(mime)
        try? uploadFile?.close()
        for fd in partFiles { close(fd) }
        partFiles = []
        curl_slist_free_all(headerList)
        headerList = nil
        errorBuffer.deallocate()
    }

    /// Sets every option; returns the first failing code (e.g. a libcurl built without a needed feature).
    func configure() -> CURLcode? {
        let context = Unmanaged.passUnretained(self).toOpaque()
        var codes: [CURLcode] = [
            reqrun_easy_setopt_string(easy, CURLOPT_URL, request.url),
            // Only http and https, also on redirects: a shared collection must not read file:// or others.
            reqrun_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
            reqrun_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            reqrun_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1),
            // The path as written: no removal of "/../" and "/./" (the server decides what they mean).
            reqrun_easy_setopt_long(easy, CURLOPT_PATH_AS_IS, 1),
            reqrun_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeLimit),
            reqrun_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, options.connectTimeoutMilliseconds),
            reqrun_easy_setopt_string(easy, CURLOPT_USERAGENT, options.userAgent),
            reqrun_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer),
            reqrun_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, curlWriteBody),
            reqrun_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context),
            reqrun_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION, curlWriteHeader),
            reqrun_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context),
            // The debug callback sees the request header block exactly as sent (CURLINFO_HEADER_OUT).
            reqrun_easy_setopt_debug_callback(easy, curlDebug),
            reqrun_easy_setopt_pointer(easy, CURLOPT_DEBUGDATA, context),
            reqrun_easy_setopt_long(easy, CURLOPT_VERBOSE, 1),
            // Called at least once a second while the transfer runs, also when no data moves.
            reqrun_easy_setopt_xferinfo_callback(easy, curlProgress),
            reqrun_easy_setopt_pointer(easy, CURLOPT_XFERINFODATA, context),
            reqrun_easy_setopt_long(easy, CURLOPT_NOPROGRESS, 0),
        ]
        codes += configureMethodAndBody()
        codes += configureConnection()
        switch request.transferAuth {
        case .digest(let username, let password):
            codes.append(reqrun_easy_setopt_long(easy, CURLOPT_HTTPAUTH, reqrun_auth_digest))
            codes.append(reqrun_easy_setopt_string(easy, CURLOPT_USERNAME, username))
            codes.append(reqrun_easy_setopt_string(easy, CURLOPT_PASSWORD, password))
        case .awsSigV4(let accessKey, let secretKey, let region, let service):
            codes.append(reqrun_easy_setopt_string(easy, CURLOPT_AWS_SIGV4, "aws:amz:\(region):\(service)"))
            codes.append(reqrun_easy_setopt_string(easy, CURLOPT_USERNAME, accessKey))
            codes.append(reqrun_easy_setopt_string(easy, CURLOPT_PASSWORD, secretKey))
        case .ntlm(let username, let password):
            codes.append(reqrun_easy_setopt_long(easy, CURLOPT_HTTPAUTH, reqrun_auth_ntlm))
            codes.append(reqrun_easy_setopt_string(easy, CURLOPT_USERNAME, username))
            codes.append(reqrun_easy_setopt_string(easy, CURLOPT_PASSWORD, password))
        case nil:
            break
        }
        var lines = request.headers.map { header in
            // "Name:" would make curl remove the field; "Name;" sends it with an empty value.
            header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
        }
        // libcurl 7.88's AWS Signature v4 signs every entry of the header list, including the "Name:" entries
        // that only remove a default field and are never sent, which would break the signature; so with
        // SigV4 curl's defaults are left alone.
        let signsHeaderList: Bool
        if case .awsSigV4 = request.transferAuth { signsHeaderList = true } else { signsHeaderList = false }
        // curl adds `Expect: 100-continue` to large bodies and waits for the server; Postman and most
        // servers do without it, so it is off unless the request sets Expect itself.
        if !signsHeaderList, !request.headers.contains(named: "expect") { lines.append("Expect:") }
        // With content, curl would add `Content-Type: application/x-www-form-urlencoded` on its own; the
        // request is sent as given, so that default is removed unless the request names a type.
        // (Not for multipart: there libcurl writes the Content-Type itself, with the boundary.)
        var isMultipart = false
        if case .multipart = request.body { isMultipart = true }
        // (Also for a POST without content: curl's POST mode adds the form type even then.)
        let sendsContent = request.body != nil || request.method == "POST"
        if !signsHeaderList, !isMultipart, sendsContent, !request.headers.contains(named: "content-type") {
            lines.append("Content-Type:")
        }
        for line in lines { headerList = curl_slist_append(headerList, line) }
        codes.append(reqrun_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList))
        return codes.first { $0 != CURLE_OK }
    }

    /// Content decoding, HTTP version, TLS, proxy and cookies.
    private func configureConnection() -> [CURLcode] {
        var codes: [CURLcode] = []
        if options.decodeContent { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "")) }
        // With several transfers in flight over TLS, wait for the HTTP/2 connection to multiplex on rather than
        // open more. Only then: libcurl 7.88 makes a waiting transfer wait forever, past its timeout, when the
        // connection it waits for broke mid-request (seen with a request header too large to send).
        if options.multiplexWait, request.url.utf8.starts(with: "https:".utf8) {
            codes.append(reqrun_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1))
        }
        switch options.httpVersion {
        case .automatic: break
        case .http1_1: codes.append(reqrun_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1)))
        case .http2:
            let cleartext = request.url.lowercased().hasPrefix("http://")
            codes.append(reqrun_easy_setopt_long(easy, CURLOPT_HTTP_VERSION,
                                                 Int(cleartext ? CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE : CURL_HTTP_VERSION_2TLS)))
        }
        if let insecure = request.insecure, insecure != options.insecure {
            // The request's own choice (Postman's strictSSL) over --insecure.
            var own = options
            own.insecure = insecure
            codes += own.applyTLSAndProxy(to: easy, url: request.url)
        } else {
            codes += options.applyTLSAndProxy(to: easy, url: request.url)
        }
        if options.certificateInfo { codes.append(reqrun_easy_setopt_long(easy, CURLOPT_CERTINFO, 1)) }
        codes += TLSChoice(disabledProtocols: request.tlsDisabledProtocols, ciphers: request.tlsCipherSelection).apply(to: easy)
        if request.disableCookies == true {
            // Postman's disableCookies: off the run's store (a reset handle keeps its share: detach it).
            codes.append(reqrun_easy_setopt_pointer(easy, CURLOPT_SHARE, nil))
            return codes
        }
        // The cookie engine: "" enables it without reading a file; the jar is read once, by the first transfer.
        if let share { codes.append(reqrun_easy_setopt_pointer(easy, CURLOPT_SHARE, share)) }
        let jar = options.cookieJarFile
        codes.append(reqrun_easy_setopt_string(easy, CURLOPT_COOKIEFILE, loadCookieJar && jar != nil && FileManager.default.fileExists(atPath: jar!) ? jar! : ""))
        // The jar is written once, when the executor closes (see `HTTPExecutor.close`).
        return codes
    }

    /// GET and HEAD use curl's own modes. Content goes as POST data (from a copy, `CURLOPT_COPYPOSTFIELDS`,
    /// size first so NUL bytes survive), as a stream from a file (`CURLOPT_READFUNCTION`), or as MIME parts
    /// (`CURLOPT_MIMEPOST`); any method other than POST is then set with `CURLOPT_CUSTOMREQUEST`, which keeps
    /// the content.
    private func configureMethodAndBody() -> [CURLcode] {
        var codes: [CURLcode] = []
        let method = request.method
        guard let body = request.body, method != "HEAD" else {
            switch method {
            case "GET": codes.append(reqrun_easy_setopt_long(easy, CURLOPT_HTTPGET, 1))
            case "HEAD": codes.append(reqrun_easy_setopt_long(easy, CURLOPT_NOBODY, 1))
            case "POST":
                codes.append(reqrun_easy_setopt_long(easy, CURLOPT_POST, 1))
                codes.append(reqrun_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, 0))
            default: codes.append(reqrun_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method))
            }
            return codes
        }
        switch body {
        case .bytes(let bytes):
            codes.append(reqrun_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count)))
            codes.append(bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    // An empty body still needs a valid pointer.
                    reqrun_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: chars.baseAddress ?? UnsafePointer(errorBuffer)))
                }
            })
        case .file(let path):
            guard let fd = openBodyFile(path) else { return [CURLE_READ_ERROR] }
            uploadFile = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            codes.append(reqrun_easy_setopt_long(easy, CURLOPT_POST, 1))
            codes.append(reqrun_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.knownSize ?? -1)))
            codes.append(reqrun_easy_setopt_read_callback(easy, curlReadBody))
            codes.append(reqrun_easy_setopt_pointer(easy, CURLOPT_READDATA, Unmanaged.passUnretained(self).toOpaque()))
        case .multipart(let parts):
            mime = curl_mime_init(easy)
            for part in parts {
                let handle = curl_mime_addpart(mime)
                codes.append(curl_mime_name(handle, part.name))
                switch part.content {
                case .text(let value):
                    // curl_mime_data copies the bytes; the length is given so NUL bytes survive.
                    let bytes = Array(value.utf8CString)
                    codes.append(bytes.withUnsafeBufferPointer { curl_mime_data(handle, $0.baseAddress, bytes.count - 1) })
                case .file(let path):
                    // Opened and checked here (a regular file), then read by libcurl through the open
                    // descriptor, so a file replaced since the check is not what is sent.
                    guard let fd = openBodyFile(path) else { return codes + [CURLE_READ_ERROR] }
                    partFiles.append(fd)
                    codes.append(curl_mime_filedata(handle, "/dev/fd/\(fd)"))
                    // libcurl names the part after the file (and guesses its type from that name).
                    codes.append(curl_mime_filename(handle, part.fileName ?? (path as NSString).lastPathComponent))
                }
                if let type = part.contentType { codes.append(curl_mime_type(handle, type)) }
                if case .text = part.content, let fileName = part.fileName { codes.append(curl_mime_filename(handle, fileName)) }
            }
            codes.append(reqrun_easy_setopt_pointer(easy, CURLOPT_MIMEPOST, UnsafeMutableRawPointer(mime)))
        }
        if method != "POST" { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method)) }
        return codes
    }

    /// `BodyFile.open`; on failure the reason goes into the error buffer, which the result's message is read from.
    private func openBodyFile(_ path: String) -> Int32? {
        switch BodyFile.open(path) {
        case .success(let fd): return fd
        case .failure(let error):
            let message = Array(error.description.utf8.prefix(Int(CURL_ERROR_SIZE) - 1)) + [0]
            message.withUnsafeBufferPointer { UnsafeMutableRawPointer(errorBuffer).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            return nil
        }
    }

    /// Fills libcurl's upload buffer from the body file: at most `capacity` bytes; 0 at the end;
    /// `CURL_READFUNC_ABORT` when the file cannot be read.
    fileprivate func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let uploadFile else { return 0 }
        guard let data = try? uploadFile.read(upToCount: buffer.count) else { return Int(CURL_READFUNC_ABORT) }
        data.copyBytes(to: buffer)
        return data.count
    }

    // MARK: - Callbacks (called from C; they must not throw)

    /// Takes the next piece of decoded content; false stops the transfer (`stopped` says why).
    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if options.maxBodySize > 0, bodySize + bytes.count > options.maxBodySize {
            // curl's --max-filesize counts bytes on the wire; this counts what they decode to.
            stopped = ResultError(curlCode: Int(CURLE_FILESIZE_EXCEEDED.rawValue),
                                  message: "response body over --max-size \(options.maxBodySize) bytes (decoded)")
            return false
        }
        if let reason = limitReached(while: "receiving the body (\(bodySize) bytes decoded from \(wireBytes) on the wire)") {
            stopped = reason
            return false
        }
        hasher.update(bytes)
        if let sink = options.bodySink {
            if !sinkBegan { sinkBegan = true; sink.begin(longInfo(CURLINFO_RESPONSE_CODE)) }
            sink.receive(bytes)
        }
        bodySize += bytes.count
        let room = keepLimit - bodyPrefix.count
        if room > 0 { bodyPrefix.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(room))) }
        return true
    }

    /// A stop asked for (Ctrl-C, SIGTERM) or the time limit passed, described for the record; nil to go on.
    /// - Parameter activity: what the transfer was doing, for the timeout's message (made only then: this
    ///   runs for every piece of content).
    fileprivate func limitReached(while activity: @autoclosure () -> String) -> ResultError? {
        if Interruption.requested {
            return ResultError(curlCode: Int(CURLE_ABORTED_BY_CALLBACK.rawValue), message: Interruption.reason)
        }
        if timeLimit > 0, ContinuousClock.now - startedAt > .milliseconds(timeLimit) {
            return ResultError(curlCode: Int(CURLE_OPERATION_TIMEDOUT.rawValue), message: "timed out after \(timeLimit) ms while \(activity())")
        }
        return nil
    }

    /// Takes one header line; false stops the transfer (`stopped` says why).
    /// (Time and signals are not checked here: header lines come a read at a time, and libcurl checks its
    /// timeout between reads; a header line is at most 100 KB.)
    fileprivate func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if HeaderLine.isStatusLine(bytes) {
            readingHeaderBlock = true
            contentLengths.removeAll()
            hasTransferEncoding = false
            // A new status line: a 1xx interim response or a redirect came before; keep only the last block.
            responseHeaders.removeAll(keepingCapacity: true)
            responseHeaders.reserveCapacity(16)
            // "HTTP/1.1 200 OK": the reason phrase is what follows the code (RFC 9112 §4), possibly empty.
            let firstSpace = bytes.firstIndex(of: 0x20)
            let secondSpace = firstSpace.flatMap { first in bytes[(first + 1)...].firstIndex(of: 0x20) }
            reasonPhrase = secondSpace.map { HeaderLine.trimmed(UnsafeRawBufferPointer(rebasing: bytes[($0 + 1)...])) } ?? ""
        } else if let first = bytes.first, first == 0x20 || first == 0x09, !responseHeaders.isEmpty {
            // Obsolete line folding (RFC 9112 §5.2): joins the previous field value with one space.
            let more = HeaderLine.trimmedBytes(bytes)
            let (text, raw) = HeaderLine.text(more)
            var field = responseHeaders[responseHeaders.count - 1]
            if raw != nil || field.valueBase64 != nil {
                let before = field.valueBase64.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } ?? Array(field.value.utf8)
                field.valueBase64 = Data(before + [0x20] + more).base64EncodedString()
            }
            field.value += " " + text
            responseHeaders[responseHeaders.count - 1] = field
        } else if let field = headerCache.responseField(bytes, at: responseHeaders.count) {
            if field.hasName("content-length") { contentLengths.append(field.value) }
            if field.hasName("transfer-encoding") { hasTransferEncoding = true }
            responseHeaders.append(field)
        } else if readingHeaderBlock, HeaderLine.trimmedBytes(bytes).isEmpty {
            // The end of the header block: its framing is checked before any content is read.
            readingHeaderBlock = false
            if !hasTransferEncoding, let problem = ContentLength.problem(contentLengths) {
                stopped = ResultError(curlCode: Int(CURLE_WEIRD_SERVER_REPLY.rawValue), message: problem)
                return false
            }
        }
        return true
    }

    fileprivate func sawIncomingData(_ count: Int) { wireBytes += count }

    /// For the progress callback: false (and `stopped` set) when the transfer must stop.
    fileprivate func checkLimits() -> Bool {
        if stopped != nil { return false }
        // Called about ten times a transfer: `stopped` is written only when there is a reason.
        guard let reason = limitReached(while: "transferring") else { return true }
        stopped = reason
        return false
    }

    fileprivate func sawOutgoingHeaders(_ bytes: UnsafeRawBufferPointer) {
        sentHeaders = headerCache.sentFields(bytes)  // after the request line
    }

    // MARK: - Result

    func result(code: CURLcode) -> TransferResult {
        let timings = Timings(namelookup: offInfo(CURLINFO_NAMELOOKUP_TIME_T), connect: offInfo(CURLINFO_CONNECT_TIME_T),
                              appconnect: offInfo(CURLINFO_APPCONNECT_TIME_T), pretransfer: offInfo(CURLINFO_PRETRANSFER_TIME_T),
                              starttransfer: offInfo(CURLINFO_STARTTRANSFER_TIME_T), total: offInfo(CURLINFO_TOTAL_TIME_T))
        guard code == CURLE_OK else {
            return TransferResult(sentHeaders: sentHeaders, uploadedBytes: offInfo(CURLINFO_SIZE_UPLOAD_T), response: nil, body: [],
                                  error: error(code), timings: timings)
        }
        var address: UnsafeMutablePointer<CChar>?
        _ = reqrun_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &address)
        let port = longInfo(CURLINFO_PRIMARY_PORT)
        var response = ResponseRecord(
            status: longInfo(CURLINFO_RESPONSE_CODE), reasonPhrase: reasonPhrase, httpVersion: Self.versionName(longInfo(CURLINFO_HTTP_VERSION)),
            headers: responseHeaders, bodySize: bodySize, wireSize: wireBytes, bodySHA256: Digest.hex(hasher.finish()),
            body: RecordedBody(prefix: Array(bodyPrefix.prefix(options.bodyLimit)), truncated: bodySize > options.bodyLimit),
            remoteAddress: address.map { String(cString: $0) }, remotePort: port == 0 ? nil : port)
        response.body.text = CharsetDecoder.recordedText(Array(bodyPrefix.prefix(options.bodyLimit)), truncated: response.body.truncated,
                                                         contentType: responseHeaders.last(named: "Content-Type"), body: bodyPrefix)
        var result = TransferResult(sentHeaders: sentHeaders, uploadedBytes: offInfo(CURLINFO_SIZE_UPLOAD_T), response: response,
                                    body: bodyPrefix, error: nil, timings: timings)
        if options.certificateInfo { result.certificate = CertificateCache.remember(leafCertificate(), origin: Self.origin(request.url)) }
        return result
    }

    /// `scheme://authority` of a URL, the key of connection reuse.
    private static func origin(_ url: String) -> String {
        guard let range = url.range(of: "://") else { return url }
        return String(url[..<(url[range.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? url.endIndex)])
    }

    /// The first certificate of `CURLINFO_CERTINFO` (the server's own) as `name: value` fields, or nil.
    private func leafCertificate() -> [String: String]? {
        var pointer: UnsafeMutableRawPointer?
        guard reqrun_easy_getinfo_pointer(easy, CURLINFO_CERTINFO, &pointer) == CURLE_OK,
              let info = pointer?.assumingMemoryBound(to: curl_certinfo.self), info.pointee.num_of_certs > 0,
              var item = info.pointee.certinfo?[0] else { return nil }
        var fields: [String: String] = [:]
        while true {
            if let data = item.pointee.data {
                let line = String(cString: data)
                if let colon = line.firstIndex(of: ":") { fields[String(line[..<colon])] = String(line[line.index(after: colon)...]) }
            }
            guard let next = item.pointee.next else { break }
            item = next
        }
        return fields
    }

    /// What went wrong, for the record: the reason a callback stopped the transfer, else libcurl's message.
    private func error(_ code: CURLcode) -> ResultError {
        if let stopped { return stopped }
        if code == CURLE_OUT_OF_MEMORY, readingHeaderBlock {
            // libcurl 7.88 rejects a header line over CURL_MAX_HTTP_HEADER (100 KB) as "Out of memory".
            return ResultError(curlCode: Int(code.rawValue), message: "response header field too long (over 100 KB, libcurl's CURL_MAX_HTTP_HEADER)")
        }
        let detail = String(cString: errorBuffer)
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        if code == CURLE_SSL_CERTPROBLEM { return ResultError(curlCode: Int(code.rawValue), message: options.clientCertificateProblem(message, url: request.url)) }
        return ResultError(curlCode: Int(code.rawValue), message: message)
    }

    private func longInfo(_ info: CURLINFO) -> Int {
        var value = 0
        _ = reqrun_easy_getinfo_long(easy, info, &value)
        return value
    }

    private func offInfo(_ info: CURLINFO) -> Int {
        var value: curl_off_t = 0
        _ = reqrun_easy_getinfo_off_t(easy, info, &value)
        return Int(value)
    }

    /// `CURLINFO_HTTP_VERSION`'s `CURL_HTTP_VERSION_*` as the record's text.
    private static func versionName(_ version: Int) -> String {
        switch version {
        case CURL_HTTP_VERSION_1_0: return "1.0"
        case CURL_HTTP_VERSION_1_1: return "1.1"
        case CURL_HTTP_VERSION_2_0: return "2"
        case CURL_HTTP_VERSION_3: return "3"
        default: return "unknown"
        }
    }
}

// File-level functions: C function pointers cannot capture context, so it comes through `userdata`.

// A write or header callback that returns less than it was given makes libcurl stop the transfer
// (CURLE_WRITE_ERROR); the transfer has recorded why.

private func curlWriteBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
}

private func curlWriteHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
}

/// libcurl's progress callback (`CURLOPT_XFERINFOFUNCTION`): non-zero stops the transfer
/// (CURLE_ABORTED_BY_CALLBACK) on Ctrl-C or SIGTERM, or when the time limit passed.
private func curlProgress(_ userdata: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
                          _ uploadTotal: curl_off_t, _ uploaded: curl_off_t) -> Int32 {
    guard let userdata else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue().checkLimits() ? 0 : 1
}

private func curlReadBody(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    guard let userdata, let buffer else { return Int(CURL_READFUNC_ABORT) }
    return Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
        .readBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
}

private func curlDebug(_ handle: UnsafeMutableRawPointer?, _ type: curl_infotype, _ data: UnsafeMutablePointer<CChar>?, _ size: Int,
                       _ userdata: UnsafeMutableRawPointer?) -> Int32 {
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    if type == CURLINFO_HEADER_OUT {
        transfer.sawOutgoingHeaders(UnsafeRawBufferPointer(start: data, count: size))
    } else if type == CURLINFO_DATA_IN {
        transfer.sawIncomingData(size)
    }
    return 0
}

/// The last server certificate seen per origin: libcurl gives `CURLINFO_CERTINFO` only for a transfer that
/// made the TLS handshake, so a transfer on a reused connection gets the one its connection was opened with.
private enum CertificateCache {
    nonisolated(unsafe) private static var byOrigin: [String: [String: String]] = [:]
    private static let lock = NSLock()

    static func remember(_ certificate: [String: String]?, origin: String) -> [String: String]? {
        lock.lock()
        defer { lock.unlock() }
        if let certificate, !certificate.isEmpty {
            byOrigin[origin] = certificate
            return certificate
        }
        return byOrigin[origin]
    }
}
