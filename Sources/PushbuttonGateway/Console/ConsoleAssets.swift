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
        input[type=text],input[type=password],input[type=url],input[type=number],input[type=datetime-local],select,\
        textarea{width:100%;font:inherit;padding:8px 10px;\
        border:1px solid #c7c7cc;border-radius:8px;background:#fff}
        textarea{min-height:64px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
        textarea.body{font-family:inherit;font-size:15px}
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
        label.check{display:flex;gap:6px;align-items:center;font-weight:400}
        .tabs{display:flex;flex-wrap:wrap;gap:0 4px;align-items:flex-end;margin-top:6px}
        .tab-item{display:contents}
        .tab-item>input{order:0;-webkit-appearance:none;appearance:none;width:0;height:0;margin:0;padding:0;border:0}
        .tab-item>label.tab{order:0;margin:0;padding:6px 14px;border:1px solid #c7c7cc;border-bottom:0;\
        border-radius:8px 8px 0 0;background:#f2f2f7;cursor:pointer}
        .tab-item>input:checked+label.tab{background:#fff;color:#0057d9;border-color:#007aff;\
        box-shadow:inset 0 3px 0 #007aff}
        .tab-item>input:focus-visible+label.tab{outline:2px solid #007aff;outline-offset:2px}
        .tab-item>.tab-panel{order:1;flex-basis:100%;min-width:0;display:none;border-top:1px solid #c7c7cc}
        .tab-item>input:checked~.tab-panel{display:block}
        .conditions{margin:8px 0;padding-left:24px}
        .condition{margin:6px 0;display:flex;flex-wrap:wrap;gap:6px 8px;align-items:center}
        .condition select.kind{width:auto;min-width:0;flex:0 1 210px}
        .condition input.value{flex:1 1 100px;width:auto;min-width:0}
        .condition .days{display:none;align-items:center;gap:6px}
        .condition .days label{margin:0;font-weight:400}
        .condition .days input{width:90px}
        .condition:has(select.kind option[value=tapped]:checked) .days{display:flex}
        .condition .diag{flex-basis:100%}
        .condition label.check{margin:0}
        .condition button.remove{min-height:34px;padding:4px 10px;border-color:#c7c7cc;color:#b3261e}
        .timing{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:4px 14px;margin:0}
        .timing dt{font-weight:600}
        .timing dd{margin:0}
        .count-line output{font-weight:700;font-variant-numeric:tabular-nums}
        #compose:has(#when-now:checked) .when-time{display:none}
        #compose:has(#to-segment:not(:checked)) #audience{display:none}
        .variant{border:1px solid #d1d1d6;border-radius:10px;padding:4px 12px 10px;margin:10px 0}
        .variant button.remove{margin-top:8px;border-color:#c7c7cc;color:#b3261e}
        .variant-tabs .tab-panel{padding-top:8px}
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
                (result.variants || []).forEach(function (variant, index) {
                  var own = index === 0 ? null : document.getElementById("preview-variant-" + index);
                  if (own && typeof variant.html === "string") { own.srcdoc = variant.html; }
                });
                showDiagnostics(result.diagnostics || []);
                var shown = document.getElementById("preview-locale");
                if (shown) { shown.textContent = data.get("locale") || ""; }
                form.setAttribute("data-preview-version", String(mine));
              })
              .catch(function () { /* offline or signed out: the Update preview button still works */ });
          }
          function schedule() {
            if (timer) { clearTimeout(timer); }
            timer = setTimeout(update, 200);
          }
          // The audience builder's live count, as the devices it reaches change.
          var audience = document.getElementById("audience");
          var countOut = document.getElementById("audience-count");
          var countTimer = null;
          var countSequence = 0;
          function countAudience() {
            var data = new FormData(form);
            data.delete("recipients");
            var mine = ++countSequence;
            fetch("/console/audience", {method: "POST", body: data, credentials: "same-origin",
                                        headers: {"X-CSRF-Token": csrf}})
              .then(function (response) { return response.json(); })
              .then(function (result) {
                if (mine !== countSequence) { return; }
                var known = typeof result.devices === "number";
                countOut.textContent = known ? result.devices.toLocaleString("en-US") : "—";
                countOut.setAttribute("data-count", known ? String(result.devices) : "");
                countOut.title = result.error || "";
              })
              .catch(function () { /* the Count button still works */ });
          }
          function scheduleCount() {
            var chosen = document.getElementById("to-segment");
            if (!audience || !countOut || !chosen || !chosen.checked) { return; }
            if (countTimer) { clearTimeout(countTimer); }
            countTimer = setTimeout(countAudience, 250);
          }
          function audienceChanged(target) {
            if (!audience) { return; }
            if (audience.contains(target) || target.name === "to") { scheduleCount(); }
            if (target.classList && target.classList.contains("kind")) {
              var option = target.options[target.selectedIndex];
              var value = target.parentNode.querySelector("input.value");
              if (option && value) { value.placeholder = option.getAttribute("data-placeholder") || ""; }
            }
          }
          var add = document.getElementById("add-condition");
          if (add) {
            add.addEventListener("click", function (event) {
              var list = document.getElementById("conditions");
              var rows = list.querySelectorAll("li.condition");
              if (rows.length === 0 || rows.length >= 20) { return; }  // the server adds (or refuses) it
              event.preventDefault();
              var next = 0;
              for (var i = 0; i < rows.length; i++) { next = Math.max(next, Number(rows[i].getAttribute("data-row")) + 1); }
              var row = rows[rows.length - 1].cloneNode(true);
              row.setAttribute("data-row", String(next));
              var named = row.querySelectorAll("[id],[name],[for],[aria-describedby],[data-field]");
              ["id", "name", "for", "aria-describedby", "data-field"].forEach(function (attribute) {
                for (var k = 0; k < named.length; k++) {
                  var value = named[k].getAttribute(attribute);
                  if (value) { named[k].setAttribute(attribute, value.replace(/seg\\.\\d+/, "seg." + next)); }
                }
              });
              var remove = row.querySelector("button.remove");
              if (remove) {
                remove.value = "remove_condition." + next;
                remove.setAttribute("aria-label", "Remove condition " + (next + 1));
              }
              var labels = row.querySelectorAll("label");
              for (var l = 0; l < labels.length; l++) {
                if (!labels[l].classList.contains("sr-only")) { continue; }
                labels[l].textContent = labels[l].textContent.replace(/Condition \\d+/, "Condition " + (next + 1));
              }
              var controls = row.querySelectorAll("input, select");
              for (var c = 0; c < controls.length; c++) {
                controls[c].removeAttribute("aria-invalid");
                if (controls[c].type === "checkbox") { controls[c].checked = false; }
                else if (controls[c].tagName === "SELECT") { controls[c].selectedIndex = 0; audienceChanged(controls[c]); }
                else { controls[c].value = ""; }
              }
              var slot = row.querySelector(".diag");
              if (slot) { slot.textContent = ""; }
              list.appendChild(row);
              row.querySelector("select").focus();
            });
          }
          // Removing a row: in place with the script (the last row is emptied instead, so one always remains).
          var conditions = document.getElementById("conditions");
          if (conditions) {
            conditions.addEventListener("click", function (event) {
              var button = event.target.closest ? event.target.closest("button.remove") : null;
              if (!button) { return; }
              event.preventDefault();
              var row = button.closest("li.condition");
              var rows = conditions.querySelectorAll("li.condition");
              if (rows.length > 1) {
                var index = Array.prototype.indexOf.call(rows, row);
                row.parentNode.removeChild(row);
                var left = conditions.querySelectorAll("li.condition");
                left[Math.min(index, left.length - 1)].querySelector("select").focus();
              } else {
                var fields = row.querySelectorAll("input");
                for (var f = 0; f < fields.length; f++) {
                  if (fields[f].type === "checkbox") { fields[f].checked = false; } else { fields[f].value = ""; }
                }
                row.querySelector("select").focus();
              }
              scheduleCount();
              schedule();
            });
          }
          if (audience && countOut && document.getElementById("to-segment") &&
              document.getElementById("to-segment").checked) { countAudience(); }
          form.addEventListener("input", function (event) {
            if (event.target.name === "recipients") { return; }
            audienceChanged(event.target);
            schedule();
          });
          form.addEventListener("change", function (event) {
            if (event.target.name === "category" || /^variants\\[\\d+\\]\\.category$/.test(event.target.name)) {
              // Another category has other buttons: the server draws the form again.
              var intent = document.createElement("input");
              intent.type = "hidden"; intent.name = "intent"; intent.value = "preview";
              form.appendChild(intent);
              form.submit();
            } else if (event.target.name !== "recipients") {
              audienceChanged(event.target);
              schedule();
            }
          });
        })();
        """
}
