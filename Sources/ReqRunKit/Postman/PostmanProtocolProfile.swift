/// Postman's `protocolProfileBehavior` (on the collection, a folder or a request item), merged key by key
/// from the collection down, the innermost winning (postman-collection's
/// `Item.getProtocolProfileBehaviorResolved`), and what reqrun makes of each key on the request:
/// - `followRedirects`, `maxRedirects` → the request's `followRedirects`, `maxRedirects`;
/// - `followOriginalHttpMethod` → `followOriginalMethod` (a 301, 302 or 303 keeps the method and content);
/// - `followAuthorizationHeader` → `followAuthorization` (credentials go on to another origin, as
///   `--location-trusted` sends them);
/// - `strictSSL` → `insecure` (`false`: no certificate or host name verification for that request);
/// - `disableBodyPruning` → `disableBodyPruning`: postman-runtime leaves out a body on GET, COPY, HEAD,
///   PURGE and UNLOCK unless it is `true` (requester `METHODS_WITHOUT_BODY`); reqrun prunes only under
///   `--compat newman` (`RequestRules.newman`), which this field overrides per request.
/// - `disableCookies` → `disableCookies`; `tlsDisabledProtocols`, `tlsCipherSelection` → the same fields
///   (`TLSChoice`); `tlsPreferServerCiphers` is taken and has no effect (it is a server's setting).
/// Other keys (`disableUrlEncoding`, …) are not honoured: one warning per key and collection.
struct PostmanProtocolProfile: Sendable, Equatable {
    var followRedirects: Bool?
    var maxRedirects: Int?
    var followOriginalHttpMethod: Bool?
    var followAuthorizationHeader: Bool?
    var strictSSL: Bool?
    var disableBodyPruning: Bool?
    var disableCookies: Bool?
    var tlsDisabledProtocols: [String]?
    var tlsCipherSelection: [String]?


    /// `reader`'s `protocolProfileBehavior` over `self`.
    /// - Throws: `InputError` when it is not an object or a key has the wrong type.
    func over(_ reader: FieldReader, warnings: inout PostmanWarnings) throws(InputError) -> PostmanProtocolProfile {
        guard let node = reader.optional("protocolProfileBehavior") else { return self }
        let path = reader.childPath("protocolProfileBehavior")
        guard case .object(let members) = node.value else {
            throw reader.error(node, path, "expected an object, found \(node.kindDescription)")
        }
        var merged = self
        for member in members {
            let fieldPath = "\(path).\(member.key)"
            func flag() throws(InputError) -> Bool {
                guard case .bool(let value) = member.value.value else {
                    throw reader.error(member.value, fieldPath, "expected true or false, found \(member.value.kindDescription)")
                }
                return value
            }
            switch member.key {
            case "followRedirects": merged.followRedirects = try flag()
            case "followOriginalHttpMethod": merged.followOriginalHttpMethod = try flag()
            case "followAuthorizationHeader": merged.followAuthorizationHeader = try flag()
            case "strictSSL": merged.strictSSL = try flag()
            case "disableBodyPruning": merged.disableBodyPruning = try flag()
            case "disableCookies": merged.disableCookies = try flag()
            case "tlsDisabledProtocols": merged.tlsDisabledProtocols = try TLSChoice.protocols(member.value, fieldPath, reader)
            case "tlsCipherSelection": merged.tlsCipherSelection = try TLSChoice.names(member.value, fieldPath, reader)
            case "tlsPreferServerCiphers": _ = try flag()  // a server's choice: nothing for a client to set (TLSChoice)
            case "maxRedirects":
                guard case .number(let text) = member.value.value, let count = Int(text), count >= 0 else {
                    throw reader.error(member.value, fieldPath, "expected a whole number of redirects, found \(member.value.kindDescription)")
                }
                merged.maxRedirects = count
            default:
                let note = "protocolProfileBehavior.\(member.key) is not honoured by reqrun (first at \(fieldPath))"
                if !warnings.notes.contains(where: { $0.hasPrefix("protocolProfileBehavior.\(member.key) ") }) { warnings.notes.append(note) }
            }
        }
        return merged
    }

    /// Sets what the profile says on `request` (its fields stay nil where the profile is silent).
    func apply(to request: inout Request) {
        if let followRedirects { request.followRedirects = followRedirects }
        if let maxRedirects { request.maxRedirects = maxRedirects }
        if let followOriginalHttpMethod { request.followOriginalMethod = followOriginalHttpMethod }
        if let followAuthorizationHeader { request.followAuthorization = followAuthorizationHeader }
        if let strictSSL { request.insecure = !strictSSL }
        if let disableBodyPruning { request.disableBodyPruning = disableBodyPruning }
        if let disableCookies { request.disableCookies = disableCookies }
        if let tlsDisabledProtocols { request.tlsDisabledProtocols = tlsDisabledProtocols }
        if let tlsCipherSelection { request.tlsCipherSelection = tlsCipherSelection }
    }
}
