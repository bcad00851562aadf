internal import CXML2

/// XPath 1.0 on XML and HTML documents, by libxml2 (the only file that imports it). Documents are parsed
/// without network access, without loading external DTDs and without substituting entities
/// (`XML_PARSE_NONET`, no `XML_PARSE_DTDLOAD`, no `XML_PARSE_NOENT`), and libxml2's error messages are
/// kept from stderr.
enum XPathQuery {
    /// Nil when `expression` is valid XPath 1.0, else a reason.
    static func problem(_ expression: String) -> String? {
        silenceErrors()
        guard let compiled = xmlXPathCompile(expression) else { return "invalid XPath expression" }
        xmlXPathFreeCompExpr(compiled)
        return nil
    }

    /// The value of `expression` on the document in `bytes`: a node set as a list of the nodes' string
    /// values, a string, a number (`3`, `2.5`) or a boolean. `html` picks the HTML parser (tolerant, as
    /// browsers); `encoding` is the charset from `Content-Type`, when any.
    static func evaluate(_ expression: String, on bytes: [UInt8], html: Bool, encoding: String?) -> Result<CheckValue, CheckEvaluator.Failure> {
        silenceErrors()
        let document: xmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                if html {
                    let options = Int32(HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_RECOVER.rawValue)
                    return htmlReadMemory(chars.baseAddress, Int32(chars.count), nil, encoding, options)
                }
                let options = Int32(XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NONET.rawValue)
                return xmlReadMemory(chars.baseAddress, Int32(chars.count), nil, encoding, options)
            }
        }
        guard let document else { return .failure(CheckEvaluator.Failure(html ? "the body is not HTML" : "the body is not well-formed XML")) }
        defer { xmlFreeDoc(document) }
        guard let context = xmlXPathNewContext(document) else { return .failure(CheckEvaluator.Failure("out of memory")) }
        defer { xmlXPathFreeContext(context) }
        guard let result = xmlXPathEvalExpression(expression, context) else {
            return .failure(CheckEvaluator.Failure("the XPath expression cannot be evaluated"))
        }
        defer { xmlXPathFreeObject(result) }
        switch result.pointee.type {
        case XPATH_NODESET:
            var texts: [JSONNode.Value] = []
            if let set = result.pointee.nodesetval {
                for k in 0..<Int(set.pointee.nodeNr) {
                    guard let node = set.pointee.nodeTab[k], let content = xmlNodeGetContent(node) else { texts.append(.string("")); continue }
                    texts.append(.string(String(cString: content)))
                    reqrun_xml_free(content)
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

    /// libxml2 prints parse and XPath errors to stderr unless a handler takes them (per thread).
    private static func silenceErrors() {
        xmlSetStructuredErrorFunc(nil, { _, _ in })
    }
}
