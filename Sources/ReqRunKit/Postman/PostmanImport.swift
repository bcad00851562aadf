/// Prepares a loaded Postman collection for `reqrun import`, which writes it in the native format.
public enum PostmanImport {
    /// What the native file can hold of `collection`.
    public struct Result: Sendable {
        /// The collection with every group id written out (`idIsDerived` false), so groups keep their ids —
        /// and their expansion — although the native file has another name, and requests in the native
        /// order (a group's requests, then its nested groups).
        public var collection: RequestCollection
        /// How many requests stood after a subfolder in the Postman file and now come before it.
        public var movedRequests: Int
        /// How many requests have scripts of their own (written as native `scripts`, with the collection's and
        /// folders').
        public var requestsWithScripts: Int
    }

    public static func prepare(_ collection: RequestCollection) -> Result {
        var moved = 0, scripted = 0
        func convert(_ group: RequestGroup) -> RequestGroup {
            var copy = group
            copy.idIsDerived = false
            if let order = group.itemOrder {
                var groupsSeen = 0
                for kind in order {
                    if kind == .group { groupsSeen += 1 } else if groupsSeen > 0 { moved += 1 }
                }
            }
            copy.itemOrder = nil
            scripted += group.requests.filter { $0.scripts != nil }.count
            copy.requests = group.requests.map { request in
                var request = request
                request.scripts = nil
                return request
            }
            copy.groups = group.groups.map(convert)
            return copy
        }
        var copy = collection
        copy.groups = collection.groups.map(convert)
        copy.warnings = []
        return Result(collection: copy, movedRequests: moved, requestsWithScripts: scripted)
    }
}
