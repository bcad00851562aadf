import Foundation

/// Stable ids for groups that do not carry one.
public enum GroupID {
    /// The namespace of reqrun's name-based group ids (a fixed random UUID, chosen once).
    public static let namespace = UUID(uuidString: "3F1B6C52-8E0A-4C1D-9F57-2B6E4A9D7C10")!

    /// The id of a group without an `id` field: a name-based UUID, version 5 (RFC 9562 §5.5: SHA-1 of the
    /// namespace followed by the name), whose name is the compact JSON array of the collection's file name
    /// and the group names from the top, e.g. `["sample.json","httpbin.org","auth"]`. It stays the same
    /// across reloads and moves of the workspace, so the group's expansion survives.
    public static func derived(fileName: String, groupPath: [String]) -> UUID {
        var name = "["
        for (i, part) in ([fileName] + groupPath).enumerated() {
            if i > 0 { name += "," }
            JSONNode.appendQuoted(part, to: &name)
        }
        name += "]"
        return nameBasedUUID(namespace: namespace, name: name)
    }

    /// A version 5 UUID (RFC 9562 §5.5) of `name` (UTF-8) in `namespace`.
    public static func nameBasedUUID(namespace: UUID, name: String) -> UUID {
        let ns = namespace.uuid
        var input: [UInt8] = [ns.0, ns.1, ns.2, ns.3, ns.4, ns.5, ns.6, ns.7,
                              ns.8, ns.9, ns.10, ns.11, ns.12, ns.13, ns.14, ns.15]
        input.append(contentsOf: Array(name.utf8))
        var hash = Digest.sha1(input)
        hash[6] = (hash[6] & 0x0F) | 0x50  // version 5
        hash[8] = (hash[8] & 0x3F) | 0x80  // variant 10xx
        return UUID(uuid: (hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7],
                           hash[8], hash[9], hash[10], hash[11], hash[12], hash[13], hash[14], hash[15]))
    }
}
