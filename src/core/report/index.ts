export { renderHtml } from "./html";
export { renderJunit } from "./junit";
export { contractLines, renderText } from "./text";
export { passHatSvg } from "./curve";
export { renderCompareText } from "./compare-text";
export { renderCompareHtml } from "./compare-html";
export { renderExplain } from "./trace-text";
