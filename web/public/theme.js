// Applies the saved theme before first paint so there is no flash. A file rather than an inline
// script, so the web app's Content-Security-Policy allows scripts from 'self' only.
try {
  var t = localStorage.getItem("desk.theme");
  if (t) document.documentElement.dataset.theme = t;
} catch (e) {}
