import Foundation
import UserBackendKit

extension NCMBDocumentStore {
  /// What a read of the user object for a write finds.
  enum Inspection {
    /// An object this client reads.
    case readable(ObjectState)
    /// The requested user's own object, which this client cannot read (the error a read
    /// throws), with its members' names.
    case unreadable(UserBackendError, UnreadableObject)
  }

  /// A user object whose members this client cannot read as a whole (one name in two
  /// spellings another client wrote, a `Date` without a valid `iso`, a marker that is not
  /// a `Date`), read member by member from the answer's bytes so that a removal or a
  /// delete can still name every member in its own bytes: the repair must not need the
  /// read that the damage breaks.
  struct UnreadableObject {
    /// The document fields' names (members outside ``NCMBDocumentStore/reservedFields``),
    /// each spelling once, in their own bytes.
    var fieldNames: [String]
    /// Whether the marker ``NCMBDocumentStore/createDateField`` is present.
    var marked: Bool
    /// The object's `createDate`, when readable.
    var createDate: Date?

    /// Whether the object holds a document (a field or the marker), as a readable one
    /// does.
    var holdsDocument: Bool { marked || !fieldNames.isEmpty }

    /// The members of `body`, or `nil` when it is not a JSON object naming `uid` in one
    /// `objectId` member, or `uid` is not the signed-in user's (another user's object is
    /// never written on the strength of an answer this client cannot read).
    init?(_ body: Data, uid: String, session: AuthSession) {
      guard uid == session.user.id, let members = JSONObjectMembers.members(body) else {
        return nil
      }
      func isNamed(_ member: JSONObjectMembers.Member, _ name: String) -> Bool {
        Array(member.name.utf8) == Array(name.utf8)
      }
      func string(_ member: JSONObjectMembers.Member) -> String? {
        try? JSONSerialization.jsonObject(with: member.value, options: [.fragmentsAllowed])
          as? String
      }
      let ids = members.filter { isNamed($0, "objectId") }
      guard ids.count == 1, string(ids[0]) == uid else { return nil }
      var seen: Set<[UInt8]> = []
      fieldNames = members.map(\.name).filter {
        !NCMBDocumentStore.reservedFields.contains($0) && seen.insert(Array($0.utf8)).inserted
      }
      marked = members.contains { isNamed($0, NCMBDocumentStore.createDateField) }
      createDate = members.first { isNamed($0, "createDate") }.flatMap(string).flatMap(
        DocumentTimestamp.parse)
    }
  }
}
