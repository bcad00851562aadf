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
    private var responseHeaders: [HeaderField] = []
    private var reasonPhrase = ""
    private var sentHeaders: [HeaderField] = []
    /// How many body bytes to hold in memory.
    private let keepLimit: Int

    private let share: UnsafeMutableRawPointer?
    private let loadCookieJar: Bool
    /// Bytes of content as they came off the wire (before content decoding), counted in the debug callback.
    private var wireBytes = 0

    /// - Parameter easy: a fresh or reset easy handle; the caller owns it (the executor keeps a pool).
    init(easy: UnsafeMutableRawPointer, request: PreparedRequest, options: ExecutorOptions, keepLimit: Int,
         share: UnsafeMutableRawPointer?, loadCookieJar: Bool) {
        self.request = request
        self.options = options
        self.keepLimit = keepLimit
        self.share = share
        self.loadCookieJar = loadCookieJar
        self.easy = easy
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
            reqrun_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, request.timeoutMilliseconds ?? options.timeoutMilliseconds),
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
        if options.insecure {
            codes.append(reqrun_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 0))
            codes.append(reqrun_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 0))
        }
        if let caFile = options.caFile { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_CAINFO, caFile)) }
        if let certificate = options.clientCertificate { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_SSLCERT, certificate)) }
        if let key = options.clientKey { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_SSLKEY, key)) }
        if let proxy = options.proxy { codes.append(reqrun_easy_setopt_string(easy, CURLOPT_PROXY, proxy)) }
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

    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bytes)
        bodySize += bytes.count
        let room = keepLimit - bodyPrefix.count
        if room > 0 { bodyPrefix.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(room))) }
    }

    fileprivate func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        if HeaderLine.isStatusLine(bytes) {
            // A new status line: a 1xx interim response or a redirect came before; keep only the last block.
            responseHeaders.removeAll(keepingCapacity: true)
            responseHeaders.reserveCapacity(16)
            // "HTTP/1.1 200 OK": the reason phrase is what follows the code (RFC 9112 §4), possibly empty.
            let firstSpace = bytes.firstIndex(of: 0x20)
            let secondSpace = firstSpace.flatMap { first in bytes[(first + 1)...].firstIndex(of: 0x20) }
            reasonPhrase = secondSpace.map { HeaderLine.trimmed(UnsafeRawBufferPointer(rebasing: bytes[($0 + 1)...])) } ?? ""
        } else if let first = bytes.first, first == 0x20 || first == 0x09, !responseHeaders.isEmpty {
            // Obsolete line folding (RFC 9112 §5.2): joins the previous field value with one space.
            responseHeaders[responseHeaders.count - 1].value += " " + HeaderLine.trimmed(bytes)
        } else if let field = HeaderLine.field(bytes) {
            responseHeaders.append(field)
        }
    }

    fileprivate func sawIncomingData(_ count: Int) { wireBytes += count }

    fileprivate func sawOutgoingHeaders(_ bytes: UnsafeRawBufferPointer) {
        sentHeaders = HeaderLine.lines(bytes).dropFirst().compactMap(HeaderLine.field)  // after the request line
    }

    // MARK: - Result

    func result(code: CURLcode) -> TransferResult {
        let timings = Timings(namelookup: offInfo(CURLINFO_NAMELOOKUP_TIME_T), connect: offInfo(CURLINFO_CONNECT_TIME_T),
                              appconnect: offInfo(CURLINFO_APPCONNECT_TIME_T), pretransfer: offInfo(CURLINFO_PRETRANSFER_TIME_T),
                              starttransfer: offInfo(CURLINFO_STARTTRANSFER_TIME_T), total: offInfo(CURLINFO_TOTAL_TIME_T))
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            return TransferResult(sentHeaders: sentHeaders, uploadedBytes: offInfo(CURLINFO_SIZE_UPLOAD_T), response: nil, body: [],
                                  error: ResultError(curlCode: Int(code.rawValue), message: message), timings: timings)
        }
        var address: UnsafeMutablePointer<CChar>?
        _ = reqrun_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &address)
        let port = longInfo(CURLINFO_PRIMARY_PORT)
        let response = ResponseRecord(
            status: longInfo(CURLINFO_RESPONSE_CODE), reasonPhrase: reasonPhrase, httpVersion: Self.versionName(longInfo(CURLINFO_HTTP_VERSION)),
            headers: responseHeaders, bodySize: bodySize, wireSize: wireBytes, bodySHA256: Digest.hex(hasher.finish()),
            body: RecordedBody(prefix: Array(bodyPrefix.prefix(options.bodyLimit)), truncated: bodySize > options.bodyLimit),
            remoteAddress: address.map { String(cString: $0) }, remotePort: port == 0 ? nil : port)
        return TransferResult(sentHeaders: sentHeaders, uploadedBytes: offInfo(CURLINFO_SIZE_UPLOAD_T), response: response,
                              body: bodyPrefix, error: nil, timings: timings)
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

private func curlWriteBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    guard let userdata else { return 0 }
    Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue().receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
    return size * count
}

private func curlWriteHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?) -> Int {
    guard let userdata else { return 0 }
    Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue().receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
    return size * count
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
