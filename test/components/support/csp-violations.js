// Loaded as a classic script before the bundle in a page under a strict CSP (test/components/integration/csp.test.ts):
// it records every violation from the first one on, where the test can read them.
window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.cspViolations.push(`${event.effectiveDirective}: ${event.blockedURI || 'inline'} (${event.sample || 'no sample'})`);
});
