/** Build-time constants injected by Vite (`define` in vite.config.ts). */
declare const __API_BASE__: string;
