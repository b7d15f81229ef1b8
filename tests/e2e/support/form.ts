/** Form helpers for JSON screens in the browser, by visible labels (a hidden tab's fields never count). */
import type { Locator, Page } from 'playwright-core';

/** A tiny valid PDF to put into an upload field. */
export function pdfFile(name: string): { name: string; mimeType: string; buffer: Buffer } {
  return { name, mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n') };
}

/** The visible controls of the page's forms, found by their labels. */
export function formControls(page: Page) {
  /** The visible text box labelled `label`. */
  const visible = (label: string): Locator => page.getByRole('textbox', { name: label, exact: true }).filter({ visible: true });
  /** The visible select labelled `label`. */
  const combo = (label: string): Locator => page.getByRole('combobox', { name: label, exact: true }).filter({ visible: true });
  /** Opens the select labelled `label` and picks the first option showing `option`. */
  const chooseOption = async (label: string, option: string): Promise<void> => {
    await combo(label).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: option }).first().click();
  };
  /** The visible form item whose label shows `label` (for controls without a labelled role, e.g. uploads). */
  const formItem = (label: string): Locator =>
    page
      .locator('.ant-formily-item')
      .filter({ visible: true })
      .filter({ has: page.locator('.ant-formily-item-label', { hasText: label }) })
      .first();
  return { visible, combo, chooseOption, formItem };
}
