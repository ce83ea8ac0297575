// lowlight without its bundled grammar sets: imported dynamically on its own so the bundle keeps
// only the core (a dynamic import of 'lowlight' itself would keep every export, all 190 grammars).
export { createLowlight } from 'lowlight';
