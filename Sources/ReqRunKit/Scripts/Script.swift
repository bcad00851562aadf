/// One JavaScript script of a Postman collection (`event: [{"listen", "script": {"exec"}}]`) that runs for
/// a request: its own, or one of a folder or the collection above it (see `Request.eventScripts`).
public struct Script: Sendable, Equatable {
    /// When it runs (Postman's `listen`): before the request is prepared, or after its response arrived.
    public enum Event: String, Sendable, Equatable {
        case prerequest
        case test
    }

    public var event: Event
    /// The JavaScript text: `exec`'s lines joined with line feeds (line 1 is `exec[0]`).
    public var source: String
    /// The collection file, as given to the loader (`collections/shop.json`).
    public var file: String
    /// The event's field path in that file, e.g. `item[3].event[1]`.
    public var fieldPath: String

    public init(event: Event, source: String, file: String, fieldPath: String) {
        self.event = event
        self.source = source
        self.file = file
        self.fieldPath = fieldPath
    }

    /// Where the script is, for messages: `collections/shop.json: item[3].event[1] (test)`. (Appended to one
    /// string of the right size: the interpolation cost about 8,000 instructions, once per scripted request.)
    public var place: String {
        let suffix = event == .test ? " (test)" : " (prerequest)"
        var text = ""
        text.reserveCapacity(file.utf8.count + fieldPath.utf8.count + 2 + suffix.utf8.count)
        text.append(file)
        text.append(": ")
        text.append(fieldPath)
        text.append(suffix)
        return text
    }
}
