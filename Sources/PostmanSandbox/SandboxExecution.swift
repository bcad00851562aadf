/// `pm.execution.location`, as postman-sandbox gives it: an array of the item names from the collection down
/// to the request (`['Shop', 'Orders', 'Create order']`; Postman's collection is the first item), whose
/// `current` is the name of the item whose script is running: the collection's for a collection script, a
/// folder's for its own, the request's for the request's. Which item a script belongs to is read from its
/// field path (`item[1].item[0].event[0]` is two items down; in the native format `groups[…]` and
/// `requests[…]` count). reqrun's group for a Postman collection's top-level requests is not an item
/// (`RequestGroup.standsForCollection`), so it is not in the list.
enum SandboxExecution {
    static let source = #"""
__reqrun.location = function (names, place) {
  var location = names.slice();
  Object.defineProperty(location, 'current', {
    enumerable: false,
    get: function () {
      var text = place(), at = text.lastIndexOf(': '), path = at < 0 ? text : text.slice(at + 2);
      var depth = (path.match(/(^|\.)(item|groups|requests)\[/g) || []).length;
      return location[Math.min(depth, location.length - 1)];
    }
  });
  return location;
};
"""#
}
