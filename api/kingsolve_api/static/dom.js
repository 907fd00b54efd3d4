// The pages' one helper for building elements: el("button", {class: "x", text: "OK"}, child...).
// An attribute false, null or undefined is left out, true is set empty.
"use strict";

window.KingsolveDom = {
  el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  },
};
