// previewd shell: switch views in place (no reload, no re-read), lazy-load the sandboxed
// preview frame, keyboard navigation of the switcher, and the soft-wrap toggle.
(function () {
  "use strict";
  var tabs = Array.prototype.slice.call(document.querySelectorAll(".switcher a[role=tab]"));

  function show(name, push) {
    tabs.forEach(function (tab) {
      var on = tab.dataset.view === name;
      tab.setAttribute("aria-selected", on ? "true" : "false");
      tab.tabIndex = on ? 0 : -1;
      var panel = document.getElementById("view-" + tab.dataset.view);
      if (!panel) return;
      panel.hidden = !on;
      if (on) {
        var frame = panel.querySelector("iframe[data-src]");
        if (frame && !frame.getAttribute("src")) frame.setAttribute("src", frame.dataset.src);
      }
    });
    if (push) {
      var tab = tabs.filter(function (t) { return t.dataset.view === name; })[0];
      if (tab) history.replaceState(null, "", tab.getAttribute("href"));
    }
    document.body.dataset.view = name;
  }

  tabs.forEach(function (tab, i) {
    tab.addEventListener("click", function (e) {
      e.preventDefault();
      show(tab.dataset.view, true);
    });
    tab.addEventListener("keydown", function (e) {
      var next = null;
      if (e.key === "ArrowRight") next = tabs[(i + 1) % tabs.length];
      else if (e.key === "ArrowLeft") next = tabs[(i - 1 + tabs.length) % tabs.length];
      else if (e.key === "Home") next = tabs[0];
      else if (e.key === "End") next = tabs[tabs.length - 1];
      if (next) {
        e.preventDefault();
        next.focus();
        show(next.dataset.view, true);
      }
    });
  });

  Array.prototype.forEach.call(document.querySelectorAll("button.wrap-toggle"), function (button) {
    button.addEventListener("click", function () {
      var code = document.getElementById(button.getAttribute("aria-controls"));
      var on = button.getAttribute("aria-pressed") !== "true";
      button.setAttribute("aria-pressed", on ? "true" : "false");
      if (code) code.dataset.wrap = on ? "on" : "off";
    });
  });

  var current = tabs.filter(function (t) { return t.getAttribute("aria-selected") === "true"; })[0];
  if (current) show(current.dataset.view, false);
})();

// Buttons that switch a class on a target element (e.g. hiding tracked changes in a
// document). aria-pressed says whether the feature is shown: pressed while the class is
// absent when data-pressed-when="absent".
(function () {
  "use strict";
  Array.prototype.forEach.call(document.querySelectorAll("button.class-toggle"), function (button) {
    button.addEventListener("click", function () {
      var target = document.getElementById(button.dataset.target);
      if (!target) return;
      var has = target.classList.toggle(button.dataset.class);
      var pressed = button.dataset.pressedWhen === "absent" ? !has : has;
      button.setAttribute("aria-pressed", pressed ? "true" : "false");
    });
  });
})();
