internal import CXML2

/// XPath 1.0 on XML and HTML documents, by libxml2 (the only file that imports it). Documents are parsed
/// without network access, without loading external DTDs and without substituting entities
/// (`XML_PARSE_NONET`, no `XML_PARSE_DTDLOAD`, no `XML_PARSE_NOENT`), and libxml2's error messages are
/// kept from stderr. libxml2 is loaded with dlopen when the first XPath expression is met (`CXML2/shim.h`).
enum XPathQuery {
    /// libxml2's functions, or why the library could not be loaded (loaded once, on first use).
    nonisolated(unsafe) private static let loaded: (api: RRXML2?, error: String) = {
        var table = RRXML2()
        if let error = rr_xml2_load(&table) { return (nil, "libxml2 (libxml2.so.2) could not be loaded: \(String(cString: error))") }
        return (table, "")
    }()

    /// Nil when `expression` is valid XPath 1.0, else a reason.
    static func problem(_ expression: String) -> String? {
        guard let xml = loaded.api else { return loaded.error }
        silenceErrors(xml)
        guard let compiled = xml.xmlXPathCompile!(expression) else { return "invalid XPath expression" }
        xml.xmlXPathFreeCompExpr!(compiled)
        return nil
    }

    /// The value of `expression` on the document in `bytes`: a node set as a list of the nodes' string
    /// values, a string, a number (`3`, `2.5`) or a boolean. `html` picks the HTML parser (tolerant, as
    /// browsers); `encoding` is the charset from `Content-Type`, when any.
    static func evaluate(_ expression: String, on bytes: [UInt8], html: Bool, encoding: String?) -> Result<CheckValue, CheckEvaluator.Failure> {
        guard let xml = loaded.api else { return .failure(CheckEvaluator.Failure(loaded.error)) }
        silenceErrors(xml)
        let document: xmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                if html {
                    let options = Int32(HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_RECOVER.rawValue)
                    return xml.htmlReadMemory!(chars.baseAddress, Int32(chars.count), nil, encoding, options)
                }
                let options = Int32(XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NONET.rawValue)
                return xml.xmlReadMemory!(chars.baseAddress, Int32(chars.count), nil, encoding, options)
            }
        }
        guard let document else { return .failure(CheckEvaluator.Failure(html ? "the body is not HTML" : "the body is not well-formed XML")) }
        defer { xml.xmlFreeDoc!(document) }
        guard let context = xml.xmlXPathNewContext!(document) else { return .failure(CheckEvaluator.Failure("out of memory")) }
        defer { xml.xmlXPathFreeContext!(context) }
        let namespaces = declaredNamespaces(document, xml)
        for (prefix, uri) in namespaces { _ = xml.xmlXPathRegisterNs!(context, prefix, uri) }
        guard let result = xml.xmlXPathEvalExpression!(expression, context) else {
            if let prefix = undefinedPrefix(expression, known: Set(namespaces.map(\.prefix))) {
                let declared = namespaces.isEmpty ? "no namespace" : namespaces.map { "\($0.prefix) (\($0.uri))" }.joined(separator: ", ")
                return .failure(CheckEvaluator.Failure("undefined namespace prefix '\(prefix)' in the XPath expression; the document declares \(declared)"))
            }
            return .failure(CheckEvaluator.Failure("the XPath expression cannot be evaluated"))
        }
        defer { xml.xmlXPathFreeObject!(result) }
        switch result.pointee.type {
        case XPATH_NODESET:
            var texts: [JSONNode.Value] = []
            if let set = result.pointee.nodesetval {
                for k in 0..<Int(set.pointee.nodeNr) {
                    guard let node = set.pointee.nodeTab[k], let content = xml.xmlNodeGetContent!(node) else { texts.append(.string("")); continue }
                    texts.append(.string(String(cString: content)))
                    withUnsafePointer(to: xml) { reqrun_xml_free($0, content) }
                }
            }
            return .success(.list(texts))
        case XPATH_STRING:
            return .success(.string(result.pointee.stringval.map { String(cString: $0) } ?? ""))
        case XPATH_NUMBER:
            let d = result.pointee.floatval
            guard d.isFinite else { return .success(.string(d.isNaN ? "NaN" : (d > 0 ? "Infinity" : "-Infinity"))) }
            return .success(.json(.number(d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : d.description)))
        case XPATH_BOOLEAN:
            return .success(.json(.bool(result.pointee.boolval != 0)))
        default:
            return .failure(CheckEvaluator.Failure("the XPath result has a type checks do not read"))
        }
    }

    /// The namespaces the document declares, for the XPath context: every prefix under its own name (the
    /// first declaration in document order wins), and the default namespace (`xmlns="…"`, the first one
    /// declared) under `_`, as Hurl does, since XPath 1.0 has no default namespace: `//_:entry` in an Atom
    /// feed. A prefix the document itself declares as `_` keeps its meaning.
    static func declaredNamespaces(_ document: xmlDocPtr, _ xml: RRXML2) -> [(prefix: String, uri: String)] {
        var found: [(prefix: String, uri: String)] = []
        var seen = Set<String>()
        var defaultURI: String?
        var stack: [xmlNodePtr] = []
        if let root = xml.xmlDocGetRootElement!(document) { stack.append(root) }
        // Depth first, children in reverse so that the walk follows document order; bounded by the parsed tree.
        while let node = stack.popLast() {
            guard node.pointee.type == XML_ELEMENT_NODE else { continue }
            var ns = node.pointee.nsDef
            while let n = ns {
                if let href = n.pointee.href.map({ String(cString: $0) }) {
                    if let prefix = n.pointee.prefix.map({ String(cString: $0) }) {
                        if seen.insert(prefix).inserted { found.append((prefix, href)) }
                    } else if defaultURI == nil, !href.isEmpty {
                        defaultURI = href
                    }
                }
                ns = n.pointee.next
            }
            var children: [xmlNodePtr] = []
            var child = node.pointee.children
            while let c = child { children.append(c); child = c.pointee.next }
            stack.append(contentsOf: children.reversed())
        }
        if let defaultURI, !seen.contains("_") { found.insert(("_", defaultURI), at: 0) }
        return found
    }

    /// The first `prefix:` of a name test in `expression` (outside string literals, not an axis `::`) that is
    /// not in `known`.
    static func undefinedPrefix(_ expression: String, known: Set<String>) -> String? {
        let scalars = Array(expression.unicodeScalars)
        var i = 0
        var quote: Unicode.Scalar?
        func isNameStart(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic || c == "_" }
        func isName(_ c: Unicode.Scalar) -> Bool { isNameStart(c) || c.properties.numericType != nil || c == "-" || c == "." }
        while i < scalars.count {
            let c = scalars[i]
            if let q = quote {
                if c == q { quote = nil }
                i += 1
                continue
            }
            if c == "'" || c == "\"" { quote = c; i += 1; continue }
            guard isNameStart(c), i == 0 || !isName(scalars[i - 1]) else { i += 1; continue }
            var end = i
            while end < scalars.count, isName(scalars[end]) { end += 1 }
            if end + 1 < scalars.count, scalars[end] == ":", scalars[end + 1] != ":" {
                let prefix = String(String.UnicodeScalarView(scalars[i..<end]))
                if !known.contains(prefix) { return prefix }
            }
            i = max(end, i + 1)
        }
        return nil
    }

    /// libxml2 prints parse and XPath errors to stderr unless a handler takes them (per thread).
    private static func silenceErrors(_ xml: RRXML2) {
        xml.xmlSetStructuredErrorFunc!(nil, { _, _ in })
    }
}
