/**
 * Ponte's icon, as SVG: the web interfaces link it from their pages, and `/favicon.ico` answers it for
 * browsers that ask there by habit (Chromium and Firefox read SVG whatever the path says).
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">
<rect width="64" height="64" rx="14" fill="#0a6b4d"/>
<path d="M10 44c6-14 14-21 22-21s16 7 22 21" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round"/>
<path d="M10 46h44" stroke="#fff" stroke-width="5" stroke-linecap="round"/>
</svg>
`;

export const FAVICON_TYPE = 'image/svg+xml';
