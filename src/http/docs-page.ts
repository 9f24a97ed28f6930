import { createHash } from "node:crypto";
import { securityHeaders } from "./security-headers";

/**
 * A self-contained API reference page: it reads /v1/openapi.json and lists every operation with
 * its parameters and schemas. No CDN, so it works on an offline box.
 */
const STYLE = `body{font:14px/1.5 system-ui,sans-serif;margin:0;color:#1f2328;background:#fff}
header{padding:16px 24px;border-bottom:1px solid #d0d7de}main{display:grid;grid-template-columns:260px 1fr}
nav{border-right:1px solid #d0d7de;height:calc(100vh - 60px);overflow:auto;padding:8px 0;position:sticky;top:0}
nav a{display:block;padding:2px 16px;color:#1f2328;text-decoration:none;font-size:13px}nav a:hover{background:#f6f8fa}
section{padding:8px 24px}h2{margin:24px 0 4px}.op{border:1px solid #d0d7de;border-radius:6px;margin:12px 0;padding:8px 12px}
.m{display:inline-block;min-width:56px;font-weight:600;font-family:monospace}.GET{color:#0969da}.POST{color:#1a7f37}.PATCH{color:#9a6700}.DELETE{color:#cf222e}.PUT{color:#8250df}
code,pre{font-family:ui-monospace,monospace;font-size:12px}pre{background:#f6f8fa;padding:8px;border-radius:6px;overflow:auto;max-height:320px}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}nav a{color:#e6edf3}pre{background:#161b22}.op,header,nav{border-color:#30363d}nav a:hover{background:#161b22}}
`;

const SCRIPT = `fetch('/v1/openapi.json').then(r=>r.json()).then(spec=>{
  const byTag={};for(const [path,item] of Object.entries(spec.paths||{}))for(const [method,op] of Object.entries(item)){
    const tag=(op.tags&&op.tags[0])||path.split('/')[2]||'other';(byTag[tag]=byTag[tag]||[]).push({path,method:method.toUpperCase(),op});}
  const esc=s=>String(s).replace(/[&<>]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;'}[c]));
  const nav=document.getElementById('nav'),ops=document.getElementById('ops');ops.textContent='';
  if(spec.info&&spec.info.description){const p=document.createElement('p');p.textContent=spec.info.description;ops.appendChild(p);}
  for(const tag of Object.keys(byTag).sort()){nav.insertAdjacentHTML('beforeend','<a href="#'+esc(tag)+'">'+esc(tag)+'</a>');
    ops.insertAdjacentHTML('beforeend','<h2 id="'+esc(tag)+'">'+esc(tag)+'</h2>');
    for(const {path,method,op} of byTag[tag]){const body=op.requestBody&&op.requestBody.content?Object.values(op.requestBody.content)[0].schema:null;
      const params=(op.parameters||[]).map(p=>esc(p.in+' '+p.name)).join(', ');
      ops.insertAdjacentHTML('beforeend','<div class="op"><span class="m '+method+'">'+method+'</span><code>'+esc(path)+'</code>'+
        (op.summary?'<div>'+esc(op.summary)+'</div>':'')+(op.description?'<div>'+esc(op.description)+'</div>':'')+(params?'<div>Parameters: '+params+'</div>':'')+
        (body?'<details><summary>Request body</summary><pre>'+esc(JSON.stringify(body,null,2))+'</pre></details>':'')+
        (op.responses?'<details><summary>Responses</summary><pre>'+esc(JSON.stringify(op.responses,null,2))+'</pre></details>':'')+'</div>');}}
});
`;

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Desk API reference</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>${STYLE}</style></head><body><header><strong>Desk API reference</strong> · <a href="/v1/openapi.json">openapi.json</a></header>
<main><nav id="nav"></nav><section id="ops">Loading…</section></main>
<script>${SCRIPT}</script></body></html>`;

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

/**
 * The page's own inline style and script are allowed by their hashes (no 'unsafe-inline'), so
 * nothing else inline can run; it fetches only its own origin's OpenAPI document.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  `script-src ${sha256(SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export function docsPage(): string {
  return PAGE;
}

export const docsHeaders = (https: boolean): Record<string, string> => ({
  "content-type": "text/html; charset=utf-8",
  ...securityHeaders(DOCS_CSP, https),
});
