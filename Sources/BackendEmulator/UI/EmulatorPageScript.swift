// The page's script, shipped in the binary as a string (served as /ui/app.js).
extension EmulatorPage {
  /// The script. It builds every element with `textContent` and attributes, never
  /// `innerHTML`, so a user-controlled value (an email, a name, a document field) is shown
  /// as text. Polling requests carry `X-Emulator-UI-Poll: 1`, which keeps them out of the
  /// request log; the actions (disable, enable, delete, delete all) are logged.
  static let script = #"""
    'use strict';
    (function () {
      const project = document.querySelector('meta[name="baas-project-id"]').content;
      const admin = '/identitytoolkit.googleapis.com/v1/projects/' +
        encodeURIComponent(project) + '/accounts:';
      const emulator = '/emulator/v1/projects/' + encodeURIComponent(project) + '/';
      const documents = '/v1/projects/' + encodeURIComponent(project) +
        '/databases/(default)/documents/users/';
      const pollMilliseconds = 1500;
      let busy = false;

      function el(tag, options, children) {
        const node = document.createElement(tag);
        const opts = options || {};
        if (opts.text !== undefined && opts.text !== null) node.textContent = String(opts.text);
        if (opts.className) node.className = opts.className;
        for (const [name, value] of Object.entries(opts.attrs || {})) {
          node.setAttribute(name, String(value));
        }
        for (const child of children || []) node.appendChild(child);
        return node;
      }

      function cell(value, className) {
        const text = value === undefined || value === null || value === '' ? '—' : value;
        return el('td', { text: text, className: className });
      }

      function flag(value) {
        if (value === undefined || value === null) return cell(null);
        return el('td', { text: value ? 'yes' : 'no', className: value ? 'yes' : 'no' });
      }

      function time(milliseconds) {
        const number = Number(milliseconds);
        if (milliseconds === undefined || milliseconds === null || !isFinite(number)) return null;
        return new Date(number).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
      }

      function fill(tableId, rows, emptyId, countId) {
        const body = document.querySelector('#' + tableId + ' tbody');
        body.replaceChildren(...rows);
        document.getElementById(emptyId).hidden = rows.length > 0;
        if (countId) document.getElementById(countId).textContent = '(' + rows.length + ')';
      }

      async function call(path, options) {
        const response = await fetch(path, Object.assign({ cache: 'no-store' }, options));
        const text = await response.text();
        let json = null;
        try { json = text ? JSON.parse(text) : {}; } catch (e) { json = null; }
        return { status: response.status, json: json };
      }

      function adminCall(operation, body, poll) {
        const headers = { 'Authorization': 'Bearer owner', 'Content-Type': 'application/json' };
        if (poll) headers['X-Emulator-UI-Poll'] = '1';
        return call(admin + operation, { method: 'POST', headers: headers,
          body: JSON.stringify(body) });
      }

      function pollGet(path, extra) {
        const headers = Object.assign({ 'X-Emulator-UI-Poll': '1' }, extra || {});
        return call(path, { headers: headers });
      }

      function selectedUser() {
        const match = /^#user=(.+)$/.exec(location.hash);
        return match ? decodeURIComponent(match[1]) : null;
      }

      async function act(promise) {
        const result = await promise;
        if (result.status >= 400) {
          const message = result.json && result.json.error ? result.json.error.message : '';
          setStatus('action failed: ' + result.status + ' ' + message, true);
        }
        refresh();
      }

      function accountRow(user) {
        const id = user.localId;
        const providers = Array.isArray(user.providers) ? user.providers :
          (user.providerUserInfo || []).map((p) => p.providerId);
        const lastSignIn = user.lastSignInAt !== undefined ? user.lastSignInAt : user.lastLoginAt;
        const row = el('tr', { attrs: { 'data-uid': id } });
        if (user.disabled) row.classList.add('disabled');
        if (id === selectedUser()) row.classList.add('selected');
        const toggle = el('button', { text: user.disabled ? 'Enable' : 'Disable',
          attrs: { type: 'button', 'data-action': user.disabled ? 'enable' : 'disable' } });
        toggle.addEventListener('click', () =>
          act(adminCall('update', { localId: id, disableUser: !user.disabled })));
        const remove = el('button', { text: 'Delete', className: 'danger',
          attrs: { type: 'button', 'data-action': 'delete' } });
        remove.addEventListener('click', () => {
          if (confirm('Delete account ' + id + '?')) act(adminCall('delete', { localId: id }));
        });
        const show = el('button', { text: 'Document',
          attrs: { type: 'button', 'data-action': 'document' } });
        show.addEventListener('click', () => { location.hash = 'user=' + encodeURIComponent(id); });
        row.append(cell(id, 'id'), cell(user.email), cell(user.userName), cell(user.displayName),
          cell(user.phoneNumber), cell(providers.join(', ')), flag(user.isAnonymous),
          flag(!!user.disabled), flag(user.emailVerified), cell(time(user.createdAt), 'time'),
          cell(time(lastSignIn), 'time'),
          cell(user.createdBy), el('td', { className: 'actions' }, [toggle, remove, show]));
        return row;
      }

      function oobRow(entry) {
        let link = cell(null);
        if (typeof entry.oobLink === 'string' && /^https?:\/\//i.test(entry.oobLink)) {
          const anchor = el('a', { text: entry.oobLink,
            attrs: { href: entry.oobLink, rel: 'noreferrer noopener', target: '_blank' } });
          link = el('td', { className: 'code' }, [anchor]);
        } else if (entry.oobLink) {
          link = cell(entry.oobLink, 'code');
        }
        return el('tr', {}, [cell(entry.email), cell(entry.requestType),
          cell(entry.oobCode, 'code'), link]);
      }

      function requestRow(entry) {
        const status = el('td', { text: entry.status,
          className: 'status-' + String(entry.status).charAt(0) });
        return el('tr', {}, [cell(time(Date.parse(entry.time)), 'time'), cell(entry.protocol),
          cell(entry.method), cell(entry.path, 'path'), status, cell(entry.durationMs)]);
      }

      const valueKinds = ['nullValue', 'booleanValue', 'integerValue', 'doubleValue',
        'timestampValue', 'stringValue', 'bytesValue', 'referenceValue', 'geoPointValue',
        'arrayValue', 'mapValue'];

      function typedValue(value) {
        const has = (k) => value && Object.prototype.hasOwnProperty.call(value, k);
        const kind = valueKinds.find(has);
        if (!kind) return [el('span', { text: JSON.stringify(value) })];
        const type = el('span', { text: ' ' + kind.replace(/Value$/, ''), className: 'type' });
        const inner = value[kind];
        if (kind === 'mapValue') return [type, fieldList((inner && inner.fields) || {})];
        if (kind === 'arrayValue') {
          const values = (inner && inner.values) || [];
          const items = values.map((item) => el('li', {}, typedValue(item)));
          return [type, el('ul', {}, items)];
        }
        let text = inner;
        if (kind === 'nullValue') text = 'null';
        if (kind === 'geoPointValue') text = inner.latitude + ', ' + inner.longitude;
        return [el('span', { text: String(text) }), type];
      }

      function fieldList(fields) {
        const items = Object.keys(fields).sort().map((name) =>
          el('li', { attrs: { 'data-field': name } },
            [el('strong', { text: name + ': ' })].concat(typedValue(fields[name]))));
        return el('ul', { className: 'fields' }, items);
      }

      async function showDocument() {
        const uid = selectedUser();
        const target = document.getElementById('document');
        const label = document.getElementById('document-user');
        if (!uid) { target.replaceChildren(); return; }
        label.replaceChildren(el('span', { text: 'users/' }), el('code', { text: uid }));
        const result = await pollGet(documents + encodeURIComponent(uid),
          { 'Authorization': 'Bearer owner' });
        const error = result.json && result.json.error;
        if (result.status === 200 && result.json) {
          const doc = result.json;
          target.replaceChildren(
            el('p', { className: 'meta', text: 'created ' + (doc.createTime || '—') +
              ', updated ' + (doc.updateTime || '—') }),
            fieldList(doc.fields || {}));
          target.setAttribute('data-state', 'document');
        } else if (result.status === 404 && error && /^Document /.test(error.message || '')) {
          target.replaceChildren(el('p', { className: 'empty', text: 'No document.' }));
          target.setAttribute('data-state', 'missing');
        } else if (result.status === 404) {
          target.replaceChildren(el('p', { className: 'empty',
            text: 'Documents are not served by this emulator.' }));
          target.setAttribute('data-state', 'not-served');
        } else {
          target.replaceChildren(el('p', { className: 'empty',
            text: 'Error ' + result.status + (error ? ': ' + error.message : '') }));
          target.setAttribute('data-state', 'error');
        }
      }

      function setStatus(text, isError) {
        const status = document.getElementById('status');
        status.textContent = text;
        status.classList.toggle('error', !!isError);
      }

      async function refresh() {
        if (busy) return;
        busy = true;
        try {
          const [accounts, sms, oob, requests] = await Promise.all([
            adminCall('query', { sortBy: 'CREATED_AT', limit: 500 }, true),
            pollGet(emulator + 'verificationCodes'),
            pollGet(emulator + 'oobCodes'),
            pollGet(emulator + 'requests')]);
          const users = (accounts.json && accounts.json.userInfo) || [];
          fill('accounts', users.map(accountRow), 'accounts-empty', null);
          const total = accounts.json ? accounts.json.recordsCount : '?';
          document.getElementById('accounts-count').textContent = '(' + total + ')';
          fill('sms', ((sms.json && sms.json.verificationCodes) || []).map((entry) =>
            el('tr', {}, [cell(entry.phoneNumber), cell(entry.code, 'code')])),
            'sms-empty', 'sms-count');
          fill('oob', ((oob.json && oob.json.oobCodes) || []).map(oobRow), 'oob-empty',
            'oob-count');
          fill('requests', ((requests.json && requests.json.requests) || []).map(requestRow),
            'requests-empty', 'requests-count');
          await showDocument();
          const failed = [accounts, sms, oob, requests].find((r) => r.status !== 200);
          if (failed) setStatus('a listing answered ' + failed.status, true);
          else setStatus('updated ' + new Date().toLocaleTimeString());
        } catch (error) {
          setStatus('cannot reach the emulator: ' + error.message, true);
        } finally {
          busy = false;
        }
      }

      function loop() {
        if (document.getElementById('live').checked && !document.hidden) refresh();
        setTimeout(loop, pollMilliseconds);
      }

      document.getElementById('project').textContent = project;
      document.getElementById('delete-all').addEventListener('click', () => {
        if (confirm('Delete every account?')) {
          act(call(emulator + 'accounts', { method: 'DELETE' }));
        }
      });
      document.getElementById('clear-requests').addEventListener('click', () =>
        act(call(emulator + 'requests', { method: 'DELETE' })));
      window.addEventListener('hashchange', refresh);
      loop();
    })();

    """#
}
