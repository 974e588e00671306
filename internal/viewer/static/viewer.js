// crossmem viewer: copy buttons, and the highlighted chunk scrolled into
// view. No framework, no build step; the pages work without it.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll("button[data-copy]")) {
    b.addEventListener("click", async () => {
      const el = document.getElementById(b.dataset.copy);
      if (!el) return;
      // innerText keeps the line breaks the <br>s make.
      const text = el.innerText.replace(/\n$/, "");
      try {
        await navigator.clipboard.writeText(text);
        b.textContent = "Copied";
      } catch (e) {
        const r = document.createRange();
        r.selectNodeContents(el);
        const s = window.getSelection();
        s.removeAllRanges();
        s.addRange(r);
        b.textContent = "Selected: press Ctrl+C";
      }
      setTimeout(() => { b.textContent = b.dataset.label || "Copy"; }, 1500);
    });
    b.dataset.label = b.textContent;
  }
  const hl = document.getElementById("highlight");
  const img = document.getElementById("page-image");
  if (hl && img) {
    // Centre the highlight vertically in the window (the page column
    // scrolls with the document).
    const show = () => {
      const r = hl.getBoundingClientRect();
      window.scrollTo({ top: Math.max(0, window.scrollY + r.top - (window.innerHeight - r.height) / 2) });
      document.body.dataset.scrolled = "highlight";
    };
    if (img.complete) show(); else img.addEventListener("load", show, { once: true });
  }
});
