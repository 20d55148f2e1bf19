// Inlined into index.html by build/inline-boot.ts and run before first paint: stored choice, else the system
// preference, else light. The server allows exactly this script by its hash (Content-Security-Policy).
(() => {
  let theme = 'light';
  try {
    const stored = localStorage.getItem('theme');
    if (stored === 'light' || stored === 'dark') theme = stored;
    else if (window.matchMedia('(prefers-color-scheme: dark)').matches) theme = 'dark';
  } catch {
    // Storage can be blocked; fall back to light.
  }
  document.documentElement.classList.toggle('dark', theme === 'dark');
  document.documentElement.style.colorScheme = theme;
})();
