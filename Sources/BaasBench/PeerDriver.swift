/// The Python side of ``PeersBench``: one long-lived child that imports `pyrebase4` and
/// `NCMB` once, then times one sign-in per line it reads (`pyrebase`, `ncmb` or `raw`)
/// with `time.perf_counter_ns` and answers the nanoseconds (or `error TYPE`), so neither
/// process start-up nor the pipe is timed.
///
/// Protocol (one line each way): the child says `ready` (or `missing PACKAGE: ERROR` and
/// exits), reads one JSON set-up object (port, API key, NCMB keys, the account), says `ok`,
/// then answers each variant name. Errors name only the exception type, never a message
/// that could hold a password or token.
///
/// Pointing the vendors' clients at the emulator without changing how they sign in:
/// pyrebase4 4.x hard-codes `https://www.googleapis.com/identitytoolkit/v3/...` and posts
/// with the module-level `requests.post` (a new connection per call, as in production);
/// the driver swaps pyrebase's `requests` for a forwarder that rewrites only the origin to
/// the emulator's `http://127.0.0.1:PORT/www.googleapis.com/...` form. The NCMB SDK signs
/// for its `fqdn` (`mbaas.api.nifcloud.com`, kept, which the emulator accepts) and
/// connects to `https://FQDN`; the driver wraps `NCMB.url` to replace only that origin.
enum PeerDriver {
  /// The driver script (Python 3).
  static let script = #"""
    import http.client, json, sys, time
    out = sys.stdout
    def reply(text):
        out.write(text + "\n"); out.flush()
    try:
        import requests
        import pyrebase
        import pyrebase.pyrebase
    except Exception as error:
        reply("missing pyrebase4: %s" % type(error).__name__); sys.exit(0)
    try:
        import NCMB.Client
    except Exception as error:
        reply("missing NCMB: %s" % type(error).__name__); sys.exit(0)
    reply("ready")
    setup = json.loads(sys.stdin.readline())
    port, origin = setup["port"], "http://127.0.0.1:%d" % setup["port"]
    class EmulatorRequests:
        # pyrebase builds https://www.googleapis.com/... URLs and posts with requests.post;
        # the request is sent unchanged except for the origin, in the emulator URL form.
        def __getattr__(self, name):
            return getattr(requests, name)
        def post(self, url, *args, **kwargs):
            return requests.post(origin + "/" + url.split("://", 1)[1], *args, **kwargs)
    pyrebase.pyrebase.requests = EmulatorRequests()
    firebase = pyrebase.initialize_app({
        "apiKey": setup["apiKey"], "authDomain": "demo-project.firebaseapp.com",
        "databaseURL": "", "storageBucket": ""}).auth()
    # The NCMB SDK signs for its FQDN (mbaas.api.nifcloud.com, kept) and connects to
    # https://FQDN; only the connection's origin changes.
    ncmb_url = NCMB.Client.NCMB.url
    NCMB.Client.NCMB.url = lambda self, *args: ncmb_url(self, *args).replace(
        "https://" + NCMB.Client.NCMB.fqdn, origin, 1)
    ncmb = NCMB.Client.NCMB(setup["applicationKey"], setup["clientKey"])
    raw = http.client.HTTPConnection("127.0.0.1", port)
    raw_body = json.dumps({"email": setup["email"], "password": setup["password"],
                           "returnSecureToken": True}).encode()
    raw_target = "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=" + setup["apiKey"]
    def pyrebase_sign_in():
        user = firebase.sign_in_with_email_and_password(setup["email"], setup["password"])
        if not user.get("idToken"): raise RuntimeError("no idToken")
    def ncmb_sign_in():
        ncmb.session_token = None
        user = ncmb.User.login(setup["userName"], setup["password"])
        if not ncmb.session_token: raise RuntimeError("no sessionToken")
    def raw_sign_in():
        raw.request("POST", raw_target, body=raw_body, headers={"Content-Type": "application/json"})
        response = raw.getresponse(); response.read()
        if response.status != 200: raise RuntimeError("HTTP %d" % response.status)
    variants = {"pyrebase": pyrebase_sign_in, "ncmb": ncmb_sign_in, "raw": raw_sign_in}
    reply("ok")
    for line in sys.stdin:
        body = variants.get(line.strip())
        if body is None:
            reply("error unknown variant"); continue
        try:
            start = time.perf_counter_ns(); body(); elapsed = time.perf_counter_ns() - start
            reply("%d" % elapsed)
        except Exception as error:
            reply("error %s" % type(error).__name__)
    """#
}
