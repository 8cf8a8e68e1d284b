// The page's language from `?lang=` (`?lang=de`, `?lang=ar`), set before the page is first painted: a classic script
// in <head>, so an Arabic page is right to left from its first frame, and nothing moves when the elements, which
// follow <html lang>, render (demo.js's "Video language" menu switches it later, with no reload).
(function () {
  var lang = new URLSearchParams(location.search).get('lang');
  if (!lang || !/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(lang)) return;
  document.documentElement.lang = lang;
  document.documentElement.dir = /^(ar|fa|he|ur)(-|$)/.test(lang) ? 'rtl' : 'ltr';
})();
