/// The console's style sheet and script, served from the gateway itself (`/console/assets/…`): no build step,
/// nothing fetched from elsewhere. The pages work without the script; it only updates the preview and the
/// diagnostics as you type.
enum ConsoleAssets {
    static let css = """
        *{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%}
        body{margin:0;font:15px/1.45 -apple-system,"Segoe UI","Helvetica Neue",Arial,sans-serif;color:#1c1c1e;\
        background:#f2f2f7}
        a{color:#0057d9}
        header.top{display:flex;flex-wrap:wrap;align-items:center;gap:8px 18px;padding:10px 16px;background:#1d3557;\
        color:#fff}
        header.top .brand{font-weight:700;margin-right:auto}
        header.top nav{display:flex;gap:14px;flex-wrap:wrap}
        header.top nav a{color:#fff;text-decoration:none;padding:4px 2px;border-bottom:2px solid transparent}
        header.top nav a[aria-current=page]{border-bottom-color:#a8dadc}
        header.top form{margin:0}
        header.top button{background:transparent;color:#fff;border:1px solid rgba(255,255,255,.6)}
        main{max-width:1180px;margin:0 auto;padding:16px}
        h1{font-size:22px;margin:4px 0 14px}
        h2{font-size:17px;margin:18px 0 8px}
        .panel{background:#fff;border-radius:12px;padding:14px 16px;margin-bottom:14px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
        .columns{display:grid;grid-template-columns:minmax(0,1fr) 410px;gap:16px;align-items:start}
        @media (max-width:860px){.columns{grid-template-columns:minmax(0,1fr)}}
        .preview-panel{position:sticky;top:10px}
        @media (max-width:860px){.preview-panel{position:static}}
        label{display:block;font-weight:600;margin:10px 0 4px}
        input[type=text],input[type=password],select,textarea{width:100%;font:inherit;padding:8px 10px;\
        border:1px solid #c7c7cc;border-radius:8px;background:#fff}
        textarea{min-height:64px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
        textarea#body{font-family:inherit;font-size:15px}
        [aria-invalid=true]{border-color:#ff3b30;box-shadow:0 0 0 1px #ff3b30}
        fieldset{border:1px solid #d1d1d6;border-radius:10px;margin:14px 0;padding:6px 12px 12px}
        legend{font-weight:700;padding:0 4px}
        .button-row{border-top:1px solid #e5e5ea;padding-top:8px;margin-top:8px}
        .button-row:first-of-type{border-top:none}
        .button-row h3{font-size:15px;margin:4px 0}
        .traits{color:#6e6e73;font-weight:400;font-size:13px}
        .radios{display:flex;flex-wrap:wrap;gap:6px 16px}
        .radios label{font-weight:400;display:flex;gap:6px;align-items:center;margin:4px 0}
        .diag{margin:4px 0 0;font-size:13px}
        .diag:empty{display:none}
        .diag li{list-style:none;margin:2px 0;padding:4px 8px;border-radius:6px;background:#fff2f1;color:#b3261e}
        .diag li.warning,.diag li.note{background:#fff8e1;color:#7a5a00}
        .diag ul{margin:0;padding:0}
        .hint{display:block;color:#555}
        .actions-bar{display:flex;gap:10px;flex-wrap:wrap;margin-top:14px}
        button{font:inherit;padding:8px 16px;border-radius:8px;border:1px solid #007aff;background:#fff;color:#0057d9;\
        cursor:pointer;min-height:40px}
        button.primary{background:#007aff;color:#fff}
        .notice{padding:10px 12px;border-radius:10px;background:#e8f8ed;color:#125c2b}
        .error-box{padding:10px 12px;border-radius:10px;background:#fff2f1;color:#b3261e}
        iframe.preview{width:100%;max-width:390px;height:600px;border:0;border-radius:14px;display:block;margin:0 auto;\
        background:#457b9d}
        table{border-collapse:collapse;width:100%;font-size:14px}
        th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e5e5ea;vertical-align:top}
        td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
        .table-wrap{overflow-x:auto}
        progress{width:100%;height:14px}
        .chart{max-width:100%;height:auto;display:block;margin:6px 0 12px}
        .grid2 .chart{width:100%}
        .grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:14px}
        .login{max-width:420px;margin:40px auto}
        code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;word-break:break-all}
        .sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
        """

    static let javascript = """
        "use strict";
        (function () {
          var form = document.getElementById("compose");
          if (!form) { return; }
          var frame = document.getElementById("preview");
          var csrf = form.querySelector("input[name=csrf]").value;
          var timer = null;
          var sequence = 0;
          function fitFrame() {
            try {
              var doc = frame.contentDocument;
              if (doc && doc.documentElement) { frame.style.height = (doc.documentElement.scrollHeight + 4) + "px"; }
            } catch (e) { /* the preview frame is not readable: keep its height */ }
          }
          frame.addEventListener("load", fitFrame);
          function showDiagnostics(list) {
            var slots = form.querySelectorAll(".diag");
            for (var i = 0; i < slots.length; i++) { slots[i].textContent = ""; }
            var invalid = form.querySelectorAll("[aria-invalid]");
            for (var j = 0; j < invalid.length; j++) { invalid[j].removeAttribute("aria-invalid"); }
            list.forEach(function (d) {
              var slot = document.getElementById("diag-" + d.field) || document.getElementById("diag-form");
              var ul = slot.querySelector("ul");
              if (!ul) { ul = document.createElement("ul"); slot.appendChild(ul); }
              var li = document.createElement("li");
              li.className = d.severity;
              li.textContent = d.severity + ": " + d.message;
              if (d.hint) {
                var hint = document.createElement("span");
                hint.className = "hint";
                hint.textContent = "hint: " + d.hint;
                li.appendChild(hint);
              }
              ul.appendChild(li);
              if (d.severity === "error") {
                var controls = form.querySelectorAll("[data-field='" + d.field + "']");
                for (var k = 0; k < controls.length; k++) { controls[k].setAttribute("aria-invalid", "true"); }
              }
            });
          }
          function update() {
            var data = new FormData(form);
            data.delete("recipients");
            var mine = ++sequence;
            fetch("/console/preview", {method: "POST", body: data, credentials: "same-origin",
                                       headers: {"X-CSRF-Token": csrf}})
              .then(function (response) { return response.json(); })
              .then(function (result) {
                if (mine !== sequence) { return; }
                if (typeof result.html === "string") { frame.srcdoc = result.html; }
                showDiagnostics(result.diagnostics || []);
                form.setAttribute("data-preview-version", String(mine));
              })
              .catch(function () { /* offline or signed out: the Update preview button still works */ });
          }
          function schedule() {
            if (timer) { clearTimeout(timer); }
            timer = setTimeout(update, 200);
          }
          form.addEventListener("input", function (event) {
            if (event.target.name === "recipients") { return; }
            schedule();
          });
          form.addEventListener("change", function (event) {
            if (event.target.name === "category") {
              // Another category has other buttons: the server draws the form again.
              var intent = document.createElement("input");
              intent.type = "hidden"; intent.name = "intent"; intent.value = "preview";
              form.appendChild(intent);
              form.submit();
            } else if (event.target.name !== "recipients") {
              schedule();
            }
          });
        })();
        """
}
