import UserBackendKit

/// `doc get`, `doc set`, `doc unset`, `doc delete`: the signed-in user's own document.
///
/// Each checks its arguments, then that the backend offers `userDocuments`
/// (`unsupported` otherwise), before any request. `--user ID` names another user's
/// document: the request is sent and the server's owner rule refuses it
/// (`permissionDenied`, exit 1).
enum DocCommands {
  static let all: [Command] = [get, set, unset, delete]

  /// The part of every `doc` command's help that says how documents print.
  private static let outputHelp = """
    output:
      text    one "field: value" line per field, sorted by name, each value in the
              notation doc set reads (a timestamp as @2026-12-01T02:14:16.123Z, a string
              bare unless it would read as another type, then JSON-quoted: "42", "")
      --json  {"document":{"createTime":T,"fields":{...},"updateTime":T}} or
              {"document":null}; field values are plain JSON: strings, integers as
              numbers (42), doubles always with a fraction or exponent (2.0, 1e+300),
              booleans, null, arrays, maps as objects, and timestamps as RFC 3339 UTC
              strings ("2026-12-01T02:14:16.123Z", microseconds when present); T is such a
              string, or null when the backend does not say
    """

  static let get = Command(
    name: "doc get", synopsis: "[--user ID] [--json]",
    help: """
      Prints the signed-in user's document ("No document." or {"document":null} when it
      does not exist; exit 0).

      options:
        --user ID   read user ID's document instead (only your own is allowed)
        --json      print the document or {"error":{...}} on standard output

      \(outputHelp)
      """,
    spec: OptionSpec(valued: ["user"], flags: ["json"]),
    run: { options, context in
      let userID = try userOption(options, command: "doc get")
      let context = context.merging(options)
      return await reportResult(
        json: options.has("json"), context: context,
        { try await store(context).document(userID: userID) },
        jsonText: DocumentOutput.json, lines: DocumentOutput.lines)
    })

  static let set = Command(
    name: "doc set", synopsis: "FIELD=VALUE... [--user ID] [--json]",
    help: """
      Sets fields of the signed-in user's document, keeping the others (a merge); creates
      the document when it does not exist. Prints the document after the change.

      VALUE is read as:
        @now               the server's time when it applies the write
        @TIMESTAMP         that time, RFC 3339: @2026-12-01T09:30:00Z, @2026-12-01T18:30:00+09:00
        JSON               42 (integer), 2.0 or 1e3 (double), true, false, null,
                           "text" (a string), [1,"a"] (array), {"a":1} (map)
        anything else      that text as a string, also an empty VALUE (name= sets "")
      Quote a string that would read as another type as JSON: code='"42"', w='"@now"'.
      A FIELD that starts with " is a JSON string, as doc get prints a name holding
      =, a control or invisible character: '"a\\u001bb"=1', '"x=y"=2'.
      Integers are 64-bit; a larger integer is stored as a double.

      options:
        --user ID   write user ID's document instead (only your own is allowed)
        --json      print the document or {"error":{...}} on standard output

      \(outputHelp)
      """,
    spec: OptionSpec(valued: ["user"], flags: ["json"], positionals: 0...Int.max),
    run: { options, context in
      let command = "doc set"
      let (fields, notes) = try FieldAssignment.parse(options.positionals, command: command)
      let userID = try userOption(options, command: command)
      for note in notes { Console.error(note) }
      let context = context.merging(options)
      return await reportResult(
        json: options.has("json"), context: context,
        {
          try await store(context).updateDocument(userID: userID, setting: fields, removing: [])
        },
        jsonText: DocumentOutput.json, lines: DocumentOutput.lines)
    })

  static let unset = Command(
    name: "doc unset", synopsis: "FIELD... [--user ID] [--json]",
    help: """
      Removes fields of the signed-in user's document, keeping the others; a field the
      document does not hold is no error, and a missing document stays missing ("No
      document."). Prints the document after the change. Any
      stored field can be removed, also one whose name doc set now refuses (a __name__ an
      older version stored); on NCMB, not the user object's own members (objectId, acl,
      displayName, ...), which are not document fields there. A FIELD that starts with "
      is a JSON string, as doc get prints odd names: '"a\\u001bb"'.

      options:
        --user ID   change user ID's document instead (only your own is allowed)
        --json      print the document or {"error":{...}} on standard output

      \(outputHelp)
      """,
    spec: OptionSpec(valued: ["user"], flags: ["json"], positionals: 1...Int.max),
    run: { options, context in
      let command = "doc unset"
      var names: Set<String> = []
      for (number, argument) in zip(1..., options.positionals) {
        guard let split = FieldName.read(argument, untilEquals: false) else {
          throw UsageError(
            "argument \(number): the FIELD \(FieldName.notJSONString)", command: command)
        }
        let (name, rest) = (split.name, split.rest)
        guard rest.isEmpty else {
          throw UsageError(
            "argument \(number): text after the FIELD's closing quote", command: command)
        }
        guard !name.isEmpty else {
          throw UsageError("argument \(number): the FIELD is empty", command: command)
        }
        guard names.insert(name).inserted else {
          throw UsageError(
            "field \(TerminalText.safe(name)) is given twice", command: command)
        }
      }
      let userID = try userOption(options, command: command)
      let context = context.merging(options)
      return await reportResult(
        json: options.has("json"), context: context,
        { () async throws -> UserDocument? in
          try await unsetFields(names, userID: userID, in: try await store(context))
        },
        jsonText: DocumentOutput.json, lines: DocumentOutput.lines)
    })

  static let delete = Command(
    name: "doc delete", synopsis: "[--user ID] [--json]",
    help: """
      Deletes the signed-in user's document. Deleting a document that does not exist is
      not an error.

      options:
        --user ID   delete user ID's document instead (only your own is allowed)
        --json      print {"document":null} or {"error":{...}} on standard output
      """,
    spec: OptionSpec(valued: ["user"], flags: ["json"]),
    run: { options, context in
      let userID = try userOption(options, command: "doc delete")
      let context = context.merging(options)
      return await reportResult(
        json: options.has("json"), context: context,
        {
          try await store(context).deleteDocument(userID: userID)
          return UserDocument?.none
        }, jsonText: DocumentOutput.json, lines: { _ in ["Document deleted."] })
    })

  /// `doc unset`: removes `names` from the document, keeping a missing document missing.
  ///
  /// It reads first, as an update would create a missing document. A read that fails with
  /// `.malformedResponse` means the server answered with a document this client cannot read
  /// (another client wrote one name in two spellings, or a member it cannot decode): the
  /// removal is still sent, since removing that member in its own bytes is the repair
  /// (README, "User documents"); the update's read-back then says whether it worked.
  /// - Returns: the document after the change, or `nil` when there is none.
  /// - Throws: ``UserBackendError`` from the read (other than `.malformedResponse`) or the
  ///   update.
  static func unsetFields(
    _ names: Set<String>, userID: String?, in documents: any UserDocumentStore
  ) async throws(UserBackendError) -> UserDocument? {
    do {
      guard try await documents.document(userID: userID) != nil else { return nil }
    } catch {
      guard case .malformedResponse = error.code else { throw error }
    }
    return try await documents.updateDocument(userID: userID, setting: [:], removing: names)
  }

  /// The backend's document store, after checking it offers `userDocuments`.
  private static func store(_ context: Context) async throws -> any UserDocumentStore {
    try await context.makeBackend(offering: [.userDocuments]).userDocuments
  }

  /// `--user ID`, or `nil` for the signed-in user.
  /// - Throws: ``UsageError`` for an ID the shared user-ID rule refuses (empty, `.`, `..`,
  ///   `/`, `?`, `#`, `%`, …), before any request.
  private static func userOption(_ options: ParsedOptions, command: String) throws -> String? {
    guard let userID = options.value("user") else { return nil }
    guard !userID.isEmpty else { throw UsageError("--user is empty", command: command) }
    // The adapters' one user-ID rule, so both backends refuse the same IDs here.
    if let problem = CredentialValidation.userIDProblem(userID) {
      throw UsageError("--user \(problem)", command: command)
    }
    return userID
  }
}
