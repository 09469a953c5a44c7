import UserBackendKit

/// What `baas signin` reports: the user and, with `--ensure-doc`, the user's document and
/// whether this sign-in created it.
struct SignInOutcome {
  /// The signed-in user.
  var user: User
  /// `--ensure-doc`'s result; `nil` without the option.
  var creation: DocumentCreation?

  /// Signs-in's second step: with `ensureDocument`, runs
  /// `UserDocumentStore.ensureDocument(for:displayName:)` for `user`.
  /// - Throws: the store's ``UserBackendKit/UserBackendError``; a note on standard error
  ///   says the sign-in itself succeeded (the session is kept).
  static func make(_ user: User, backend: any UserBackend, ensureDocument: Bool) async throws
    -> SignInOutcome
  {
    guard ensureDocument else { return SignInOutcome(user: user) }
    do {
      let creation = try await backend.userDocuments.ensureDocument(for: user)
      return SignInOutcome(user: user, creation: creation)
    } catch {
      Console.error(
        "note: signed in as \(HumanOutput.describe(user)), but the document could not be "
          + "ensured")
      throw error
    }
  }

  /// `{"user":{…}}`, or with a document
  /// `{"created":BOOL,"document":{"createTime":…,"fields":{…},"updateTime":…},"user":{…}}`.
  var json: String {
    guard let creation else { return JSONOutput.user(user) }
    return "{\"created\":\(creation.created),"
      + "\"document\":\(DocumentOutput.documentJSON(creation.document)),"
      + "\"user\":\(JSONOutput.userFields(user))}"
  }

  /// `Signed in as …`, then with a document whether it was created, and its fields.
  var lines: [String] {
    var lines = ["Signed in as \(HumanOutput.describe(user))."]
    if let creation {
      lines.append(
        creation.created
          ? "Created the user's document:" : "The user's document exists (left unchanged):")
      lines += DocumentOutput.lines(creation.document).map { "  " + $0 }
    }
    return lines
  }
}
