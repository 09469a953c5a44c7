// The page's HTML and CSS, shipped in the binary as strings: nothing to build, no bundle
// to find at run time, no CDN. The script is in EmulatorPageScript.swift.
extension EmulatorPage {
  /// The page, with `{{PROJECT_ID}}` standing for the HTML-escaped project ID. It holds
  /// no inline script or style: the Content-Security-Policy forbids both.
  static let htmlTemplate = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="baas-project-id" content="{{PROJECT_ID}}">
    <title>baas emulator</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/ui/app.css">
    <script src="/ui/app.js" defer></script>
    </head>
    <body>
    <header>
      <h1>baas emulator</h1>
      <span class="project">project <code id="project"></code></span>
      <span id="status" role="status">loading…</span>
      <label class="live"><input type="checkbox" id="live" checked> live</label>
    </header>
    <main>
    <section id="accounts-section">
      <h2>Accounts <span class="count" id="accounts-count"></span></h2>
      <div class="toolbar">
        <button type="button" id="delete-all" class="danger">Delete all accounts</button>
      </div>
      <div class="scroll">
      <table id="accounts">
        <thead><tr>
          <th>ID</th><th>Email</th><th>User name</th><th>Display name</th>
          <th>Phone number</th><th>Providers</th><th>Anonymous</th><th>Disabled</th>
          <th>Email verified</th><th>Created</th><th>Last sign-in</th><th>Created by</th>
          <th>Actions</th>
        </tr></thead>
        <tbody></tbody>
      </table>
      </div>
      <p class="empty" id="accounts-empty" hidden>No accounts.</p>
    </section>
    <div class="columns">
    <section id="sms-section">
      <h2>Pending SMS codes <span class="count" id="sms-count"></span></h2>
      <table id="sms">
        <thead><tr><th>Phone number</th><th>Code</th></tr></thead>
        <tbody></tbody>
      </table>
      <p class="empty" id="sms-empty" hidden>No pending SMS codes.</p>
    </section>
    <section id="oob-section">
      <h2>Out-of-band codes <span class="count" id="oob-count"></span></h2>
      <table id="oob">
        <thead><tr><th>Email</th><th>Request type</th><th>Code</th><th>Link</th></tr></thead>
        <tbody></tbody>
      </table>
      <p class="empty" id="oob-empty" hidden>No out-of-band codes.</p>
    </section>
    </div>
    <section id="document-section">
      <h2>User document</h2>
      <p id="document-user">Choose “Document” on an account to see its document.</p>
      <div id="document"></div>
    </section>
    <section id="requests-section">
      <h2>Last requests <span class="count" id="requests-count"></span></h2>
      <div class="toolbar">
        <button type="button" id="clear-requests">Clear</button>
      </div>
      <div class="scroll">
      <table id="requests">
        <thead><tr>
          <th>Time</th><th>Protocol</th><th>Method</th><th>Path</th><th>Status</th>
          <th>ms</th>
        </tr></thead>
        <tbody></tbody>
      </table>
      </div>
      <p class="empty" id="requests-empty" hidden>No requests yet.</p>
    </section>
    </main>
    </body>
    </html>

    """#

  /// The page's style sheet.
  static let css = #"""
    :root { --fg: #1d2330; --muted: #667085; --line: #d9dde5; --bg: #f6f7f9;
      --accent: #1a73e8; --danger: #c5221f; --ok: #188038; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: var(--fg);
      background: var(--bg); }
    header { display: flex; gap: 16px; align-items: baseline; padding: 12px 20px;
      background: #fff; border-bottom: 1px solid var(--line); }
    h1 { font-size: 18px; margin: 0; }
    h2 { font-size: 15px; margin: 0 0 8px; }
    #status { color: var(--muted); margin-left: auto; }
    #status.error { color: var(--danger); }
    main { padding: 16px 20px; display: grid; gap: 16px; }
    section { background: #fff; border: 1px solid var(--line); border-radius: 6px;
      padding: 12px 14px; min-width: 0; }
    .columns { display: grid; grid-template-columns: 1fr 2fr; gap: 16px; }
    .scroll { overflow-x: auto; }
    .toolbar { margin-bottom: 8px; }
    .count { color: var(--muted); font-weight: normal; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line);
      vertical-align: top; }
    th { font-weight: 600; color: var(--muted); }
    td { overflow-wrap: break-word; }
    td.id, td.actions { white-space: nowrap; }
    td.time { min-width: 7em; }
    td.id, td.code, td.path { font-family: ui-monospace, monospace; font-size: 12px; }
    tr.selected td { background: #e8f0fe; }
    tr.disabled td { color: var(--muted); }
    .yes { color: var(--ok); font-weight: 600; }
    .no { color: var(--muted); }
    .empty { color: var(--muted); margin: 6px 0 0; }
    button { font: inherit; padding: 2px 8px; margin: 0 4px 2px 0; cursor: pointer;
      border: 1px solid var(--line); border-radius: 4px; background: #fff; }
    button:hover { border-color: var(--accent); }
    button.danger { color: var(--danger); }
    .status-4, .status-5 { color: var(--danger); }
    .fields { margin: 4px 0 0; }
    .fields ul { margin: 2px 0; padding-left: 18px; }
    .type { color: var(--muted); font-size: 12px; }
    .meta { color: var(--muted); font-size: 12px; margin: 4px 0; }
    code { font-family: ui-monospace, monospace; }

    """#
}
