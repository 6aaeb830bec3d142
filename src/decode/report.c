// SPDX-License-Identifier: GPL-2.0
/*
 * csdump: the HTML report (see report.h).  The page is a fixed shell, the
 * views' JSON lines in a <script type="application/json"> element (jsonf.h
 * escapes '<', so no string closes it) and a small script that draws an SVG
 * lane per CPU from them.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/diag.h"
#include "core/fileio.h"
#include "decode/jsonf.h"
#include "decode/report.h"

static const char page_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	"<title>csdump report</title>\n<style>\n"
	"body{font:13px/1.4 monospace;margin:1em;color:#222;background:#fff}\n"
	"h1{font-size:16px}h2{font-size:14px;margin:1.5em 0 .3em}\n"
	".lane{display:block;border:1px solid #ccc;background:#fafafa}\n"
	".stop{margin:.3em 0}table{border-collapse:collapse}"
	"td,th{padding:0 .8em 0 0;text-align:left}td.n{text-align:right}\n"
	".cols{display:flex;gap:3em;flex-wrap:wrap}\n"
	"</style></head><body>\n";

/* Draws from the JSON lines in #csdump-data; no network, no eval. */
static const char page_script[] =
	"<script>\n"
	"'use strict';\n"
	"(function () {\n"
	"  const text = document.getElementById('csdump-data').textContent;\n"
	"  const cpus = new Map();\n"
	"  for (const line of text.split('\\n')) {\n"
	"    if (!line.trim()) continue;\n"
	"    const o = JSON.parse(line);\n"
	"    const key = o.trace_id;\n"
	"    if (!cpus.has(key)) cpus.set(key, {cpu: o.cpu, trace_id: o.trace_id});\n"
	"    cpus.get(key)[o.type] = o;\n"
	"  }\n"
	"  const root = document.getElementById('cpus');\n"
	"  const SVG = 'http://www.w3.org/2000/svg';\n"
	"  const W = 1200, X0 = 10, SHOW = 400;\n"
	"  const el = (tag, attrs, txt) => {\n"
	"    const e = document.createElement(tag);\n"
	"    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);\n"
	"    if (txt !== undefined) e.textContent = txt;\n"
	"    return e;\n"
	"  };\n"
	"  const list = [...cpus.values()].sort((a, b) => (a.cpu ?? 1e9) - (b.cpu ?? 1e9) ||\n"
	"                                                 a.trace_id - b.trace_id);\n"
	"  list.forEach((c, idx) => {\n"
	"    const hue = Math.round(idx * 360 / Math.max(list.length, 1));\n"
	"    const name = 'CPU ' + (c.cpu === null ? '?' : c.cpu);\n"
	"    const sec = el('section', {id: 'cpu-' + c.trace_id, 'data-cpu': String(c.cpu)});\n"
	"    sec.appendChild(el('h2', {}, name + ' (trace ID 0x' +\n"
	"                            c.trace_id.toString(16).padStart(2, '0') + ')'));\n"
	"    const st = c.stack || {frames: []}, fn = c.functions || {}, tl = c.timeline;\n"
	"    const top = st.frames.find(f => f.sym);\n"
	"    let stop = top ? 'The trace ends in ' + top.sym.split('+')[0] :\n"
	"      (fn.instructions ? 'No call stack at the end (nothing in the image ran since the ' +\n"
	"                         'last gap or exception return' + (st.left_image ? ': the trace left the image' : '') + ')'\n"
	"                       : 'No instructions traced');\n"
	"    if (st.last_event) {\n"
	"      const le = st.last_event;\n"
	"      stop += '; the last event: ' + le.type.replace(/_/g, ' ') +\n"
	"              (le.what ? ' (' + le.what + ')' : '') + (le.reason ? ' (' + le.reason + ')' : '');\n"
	"    }\n"
	"    sec.appendChild(el('p', {class: 'stop'}, stop + '. ' + (fn.instructions || 0) +\n"
	"                      ' instructions in the window.'));\n"
	"    const all = tl ? tl.slices : [];\n"
	"    const slices = all.slice(-SHOW);\n"
	"    const base = slices.reduce((m, s) => Math.min(m, s[2]), 1e9);\n"
	"    const depth = slices.reduce((m, s) => Math.max(m, s[2] - base), 0);\n"
	"    const ROW = Math.max(2, Math.min(12, Math.floor(360 / (depth + 1))));\n"
	"    const colour = l => 'hsl(' + hue + ',70%,' + l + '%)';\n"
	"    const svg = document.createElementNS(SVG, 'svg');\n"
	"    svg.setAttribute('class', 'lane');\n"
	"    svg.setAttribute('id', 'lane-' + c.trace_id);\n"
	"    svg.setAttribute('data-cpu', String(c.cpu));\n"
	"    svg.setAttribute('data-slices', String(slices.length));\n"
	"    svg.setAttribute('width', String(X0 + W));\n"
	"    svg.setAttribute('height', String(Math.max((depth + 1) * ROW + 2, 24)));\n"
	"    const sw = document.createElementNS(SVG, 'rect');\n"
	"    sw.setAttribute('class', 'swatch');\n"
	"    sw.setAttribute('x', '0'); sw.setAttribute('y', '0');\n"
	"    sw.setAttribute('width', String(X0 - 2)); sw.setAttribute('height', '24');\n"
	"    sw.setAttribute('fill', colour(50));\n"
	"    svg.appendChild(sw);\n"
	"    const step = W / Math.max(slices.length, 1);\n"
	"    slices.forEach((s, i) => {\n"
	"      const r = document.createElementNS(SVG, 'rect');\n"
	"      r.setAttribute('x', (X0 + i * step).toFixed(2));\n"
	"      r.setAttribute('width', Math.max(step - (step > 3 ? 1 : 0), 0.5).toFixed(2));\n"
	"      r.setAttribute('y', String(1 + (s[2] - base) * ROW));\n"
	"      r.setAttribute('height', String(ROW - (ROW > 3 ? 1 : 0)));\n"
	"      r.setAttribute('fill', colour(s[3] ? 35 : 50));\n"
	"      const t = document.createElementNS(SVG, 'title');\n"
	"      t.textContent = (s[4] || '(no symbol)') + '  ' + s[5] + '-' + s[6] + '  ' +\n"
	"                      s[1] + ' instr, depth ' + s[2] + (s[3] ? ', in an exception' : '');\n"
	"      r.appendChild(t);\n"
	"      svg.appendChild(r);\n"
	"    });\n"
	"    const shown = slices.reduce((n, s) => n + s[1], 0);\n"
	"    sec.appendChild(svg);\n"
	"    sec.appendChild(el('div', {}, 'call depth of the last ' + slices.length + ' of ' +\n"
	"      all.length + ' runs of one function at one depth kept (' + shown +\n"
	"      ' instructions), in order: oldest at the left, newest at the right; ' +\n"
	"      'hover a run for its function, addresses and instructions'));\n"
	"    const cols = el('div', {class: 'cols'});\n"
	"    const stk = el('div');\n"
	"    stk.appendChild(el('h3', {}, 'Call stack at the end, innermost first'));\n"
	"    const ol = el('ol', {start: '0'});\n"
	"    for (const f of st.frames) {\n"
	"      let s = (f.pc || '?') + ' ' + (f.sym || '');\n"
	"      if (f.entered_by === 'exception' && f.exception)\n"
	"        s += '  <- exception ' + f.exception.number + (f.exception.what ? ' (' + f.exception.what + ')' : '');\n"
	"      if (f.entered_by === 'before_window') s += '  (entered before the window)';\n"
	"      ol.appendChild(el('li', {}, s));\n"
	"    }\n"
	"    stk.appendChild(ol);\n"
	"    cols.appendChild(stk);\n"
	"    const tab = el('div');\n"
	"    tab.appendChild(el('h3', {}, 'Functions by instructions'));\n"
	"    const table = el('table');\n"
	"    const hr = el('tr');\n"
	"    for (const h of ['instructions', 'calls', 'function']) hr.appendChild(el('th', {}, h));\n"
	"    table.appendChild(hr);\n"
	"    for (const f of (fn.functions || []).slice(0, 25)) {\n"
	"      const tr = el('tr');\n"
	"      tr.appendChild(el('td', {class: 'n'}, String(f.instructions)));\n"
	"      tr.appendChild(el('td', {class: 'n'}, String(f.calls)));\n"
	"      tr.appendChild(el('td', {title: f.addr || ''}, f.sym || '(no symbol)'));\n"
	"      table.appendChild(tr);\n"
	"    }\n"
	"    tab.appendChild(table);\n"
	"    cols.appendChild(tab);\n"
	"    sec.appendChild(cols);\n"
	"    root.appendChild(sec);\n"
	"  });\n"
	"  document.body.setAttribute('data-lanes', String(list.length));\n"
	"})();\n"
	"</script>\n</body></html>\n";

static void html_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

enum csd_err csd_report_write(struct csd_views *v, const char *path, const char *title,
			      const char *osrelease)
{
	char *buf = NULL;
	size_t len = 0;
	enum csd_err err;
	bool ok;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		csd_error("out of memory");
		return CSD_ERR_NOMEM;
	}
	fputs(page_head, f);
	fputs("<h1>csdump: the last moments of each CPU of ", f);
	html_text(f, title);
	if (osrelease && *osrelease) {
		fputs(" (Linux ", f);
		html_text(f, osrelease);
		fputc(')', f);
	}
	fputs("</h1>\n<div id=\"cpus\"></div>\n"
	      "<script type=\"application/json\" id=\"csdump-data\">\n", f);
	ok = csd_views_write_json(v, f);
	fputs("</script>\n", f);
	fputs(page_script, f);
	if (fclose(f) || !ok) {
		free(buf);
		return CSD_ERR_NOMEM;
	}
	err = csd_file_write(path, buf, len);	/* reports its errors */
	free(buf);
	return err;
}
