import Foundation
import Testing
import TestSupport

/// `pm.execution.location` (`SandboxExecution`): the item names from the collection down, and `current`, the
/// item whose script runs, in collection, folder and request scripts; reqrun's group for top-level requests
/// is not in the list.
@Suite struct PostmanExecutionEndToEndTests {
    @Test func locationAndCurrent() throws {
        let base = try TestServers.httpbin()
        let dir = try TemporaryDirectory()
        func event() -> String {
            "[{\"listen\": \"prerequest\", \"script\": {\"exec\": [\"pm.test(pm.execution.location.current + ': ' + pm.execution.location.join('/') + ' ' + pm.execution.location.length, () => {});\"]}}]"
        }
        try dir.write("collections/shop.json", """
            {"info": {"name": "Shop", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "event": \(event()),
             "item": [
               {"name": "top", "event": \(event()), "request": {"method": "GET", "url": "\(base)/get"}},
               {"name": "Orders", "event": \(event()), "item": [
                 {"name": "Paid", "item": [
                   {"name": "list", "event": \(event()), "request": {"method": "GET", "url": "\(base)/get"}}]}]}]}
            """)
        let output = try ReqRunBinary.run(["run", "--all"], in: dir.url)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        for line in ["✓ Shop: Shop/top 2", "✓ top: Shop/top 2", "✓ Shop: Shop/Orders/Paid/list 4",
                     "✓ Orders: Shop/Orders/Paid/list 4", "✓ list: Shop/Orders/Paid/list 4"] {
            #expect(output.stdout.contains(line), "\(line): \(output.stdout)")
        }
    }
}
