/**
 * WCAG AA text contrast of a rendered document, measured in the page: each element's own text
 * against the first opaque background behind it. Handed to Playwright's evaluate, so it is one
 * self-contained function.
 */
export function lowContrast(): string[] {
  const rgba = (value: string): number[] => {
    const parts = /rgba?\(([^)]+)\)/
      .exec(value)?.[1]
      ?.split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number) ?? [0, 0, 0, 0];
    return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
  };
  const luminance = ([r, g, b]: number[]) => {
    const [R, G, B] = [r!, g!, b!].map((c) =>
      c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4,
    );
    return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
  };
  const background = (element: Element): number[] => {
    for (let e: Element | null = element; e; e = e.parentElement) {
      const color = rgba(getComputedStyle(e).backgroundColor);
      if (color[3]! > 0) return color;
    }
    return [255, 255, 255, 1];
  };
  const failures: string[] = [];
  for (const element of Array.from(document.body.querySelectorAll('*'))) {
    const text = Array.from(element.childNodes)
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent ?? '')
      .join('')
      .trim();
    const rect = element.getBoundingClientRect();
    if (text === '' || rect.width === 0 || rect.height === 0) continue;
    const style = getComputedStyle(element);
    const [fg, bg] = [luminance(rgba(style.color)), luminance(background(element))];
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5))
      failures.push(
        `${element.tagName.toLowerCase()}.${element.className} "${text.slice(0, 40)}": ${ratio.toFixed(2)}`,
      );
  }
  return failures;
}
