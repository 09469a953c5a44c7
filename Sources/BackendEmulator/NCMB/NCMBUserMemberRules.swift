import Foundation

// The user object's own members in a write (`POST users`, `PUT users/{id}`): a member the
// emulator would not apply is refused with an NCMB error instead of a 200 that ignores it.
//
// NCMB's documentation lists the user object's members and the error codes, not the answer
// to a write of a read-only member; the client libraries never send one (the JavaScript
// SDK strips `objectId`, `createDate`, `updateDate`, `mailAddressConfirm` and `password`
// from an update body unless set). The emulator answers with the documented code for "a
// member that may not be set", `E403005 {member} must not be entered.` (the service's
// answer to `sessionToken` in a body), so a test against the emulator can never believe
// such a write worked.
extension NCMBHandler {
  /// Members the service keeps for itself: setting one, to any value (`null` included), is
  /// `403 E403005 {member} must not be entered.`
  static let readOnlyUserMembers = [
    "sessionToken", "objectId", "createDate", "updateDate", "mailAddressConfirm",
  ]

  /// Checks the members of a write that the user endpoints own, before anything is stored:
  ///
  /// - a read-only member (``readOnlyUserMembers``): `403 E403005`;
  /// - on an update (`creating == false`):
  ///   - `authData`: `403 E403003` (linking and unlinking are not served by the emulator);
  ///   - `userName` `null`, empty or only spaces: `400 E400003 userName is empty.`, as at
  ///     sign-up (every password account has a user name);
  ///   - `mailAddress` `null`: `403 E403003` (the emulator does not remove an address: an
  ///     account created with an email signs in with it);
  ///   - `password` `null` or empty: `400 E400003 password is empty.`; too long: `E400009`.
  ///
  /// A member of the wrong JSON type (`{"userName":5}`) is refused earlier, `E400002`
  /// (``NCMBRequestContext``).
  static func checkUserMembers(_ body: WireObject, creating: Bool) throws(NCMBError) {
    for member in readOnlyUserMembers where body.has(member) {
      throw .mustNotBeEntered(member)
    }
    guard !creating else { return }
    if body.has("authData") { throw .prohibited }
    if body.has("userName"), body.string("userName")?.trimmingSpaces().isEmpty != false {
      throw .empty("userName")
    }
    if body.has("mailAddress"), body.string("mailAddress") == nil { throw .prohibited }
    if body.has("password") {
      guard let password = body.string("password"), !password.isEmpty else {
        throw .empty("password")
      }
      try checkPassword(password)
    }
  }
}
