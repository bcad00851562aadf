import Foundation

/// Run ids and the time stamps in records.
public enum RunID {
    /// A new run id: UTC start time to the millisecond, then 4 random hex digits, e.g.
    /// `20261129-133428-123-4f2a`. Ids sort in start order, as file names too.
    public static func make(_ date: Date) -> String {
        let suffix = String(UInt16.random(in: 0...UInt16.max), radix: 16)
        return timestamp(date) + "-" + String(repeating: "0", count: 4 - suffix.count) + suffix
    }

    /// Whether `text` has the form of a run id (`20261129-133428-123-4f2a`).
    public static func isRunID(_ text: String) -> Bool {
        // On bytes: `history` and pruning ask this of every file in the runs folder.
        let shape = Array("xxxxxxxx-xxxxxx-xxx-xxxx".utf8)
        return text.utf8.count == shape.count && zip(text.utf8, shape).allSatisfy { byte, expected in
            expected == UInt8(ascii: "-") ? byte == expected
                : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }
    }

    /// `YYYYMMDD-HHMMSS-mmm` in UTC, safe in file names.
    public static func timestamp(_ date: Date) -> String {
        format(date, "YYYYMMDD-hhmmss-SSS")
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2026-11-29T13:34:28.123Z`.
    public static func iso8601(_ date: Date) -> String {
        format(date, "YYYY-MM-DDThh:mm:ss.SSSZ")
    }

    /// Fills `pattern`'s runs of `Y`, `M`, `D`, `h`, `m`, `s`, `S` (milliseconds) with zero-padded digits;
    /// other characters are copied. On bytes: a time stamp is written for every request of a run, and
    /// building it from `String(Int)` pieces cost 10,000 instructions a call (callgrind).
    private static func format(_ date: Date, _ pattern: StaticString) -> String {
        let (t, ms) = utc(date)
        return String(unsafeUninitializedCapacity: pattern.utf8CodeUnitCount) { buffer in
            var i = pattern.utf8CodeUnitCount - 1
            // Right to left, so each run's last letter takes the value's last digit.
            var remaining: (letter: UInt8, value: Int) = (0, 0)
            while i >= 0 {
                let letter = pattern.utf8Start[i]
                let value: Int?
                switch letter {
                case UInt8(ascii: "Y"): value = Int(t.tm_year) + 1900
                case UInt8(ascii: "M"): value = Int(t.tm_mon) + 1
                case UInt8(ascii: "D"): value = Int(t.tm_mday)
                case UInt8(ascii: "h"): value = Int(t.tm_hour)
                case UInt8(ascii: "m"): value = Int(t.tm_min)
                case UInt8(ascii: "s"): value = Int(t.tm_sec)
                case UInt8(ascii: "S"): value = ms
                default: value = nil
                }
                if let value {
                    if remaining.letter != letter { remaining = (letter, value) }
                    buffer[i] = UInt8(ascii: "0") + UInt8(remaining.value % 10)
                    remaining.value /= 10
                } else {
                    buffer[i] = letter
                    remaining.letter = 0
                }
                i -= 1
            }
            return pattern.utf8CodeUnitCount
        }
    }

    /// The UTC calendar fields (C's `gmtime_r`, cheap enough for a time stamp per request) and milliseconds,
    /// truncated so they never round up to 1000.
    private static func utc(_ date: Date) -> (tm, Int) {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds.quotientAndRemainder(dividingBy: 1000).quotient)
        var fields = tm()
        gmtime_r(&seconds, &fields)
        return (fields, ((milliseconds % 1000) + 1000) % 1000)
    }
}
