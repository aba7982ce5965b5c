import { Key } from 'selenium-webdriver';

/**
 * Key names as the `press` step takes them (the names of KeyboardEvent.key, as Playwright's
 * keyboard.press reads them) mapped to WebDriver's key codes. Names not listed here are sent as
 * they are when they are one character long.
 */
const NAMED_KEYS: Record<string, string> = {
  Enter: Key.ENTER,
  Tab: Key.TAB,
  Escape: Key.ESCAPE,
  Backspace: Key.BACK_SPACE,
  Delete: Key.DELETE,
  Space: Key.SPACE,
  ArrowUp: Key.ARROW_UP,
  ArrowDown: Key.ARROW_DOWN,
  ArrowLeft: Key.ARROW_LEFT,
  ArrowRight: Key.ARROW_RIGHT,
  Home: Key.HOME,
  End: Key.END,
  PageUp: Key.PAGE_UP,
  PageDown: Key.PAGE_DOWN,
  Insert: Key.INSERT,
  Shift: Key.SHIFT,
  Control: Key.CONTROL,
  Alt: Key.ALT,
  Meta: Key.META,
  F1: Key.F1,
  F2: Key.F2,
  F3: Key.F3,
  F4: Key.F4,
  F5: Key.F5,
  F6: Key.F6,
  F7: Key.F7,
  F8: Key.F8,
  F9: Key.F9,
  F10: Key.F10,
  F11: Key.F11,
  F12: Key.F12,
};

/** `Control+A` → the WebDriver keys, modifiers first; throws for a name it does not know. */
export function webDriverKeys(combination: string): string[] {
  // A lone "+" is the plus key, not a separator.
  const names = combination === '+' ? ['+'] : combination.split('+');
  return names.map((name) => {
    const key = NAMED_KEYS[name] ?? (name.length === 1 ? name : undefined);
    if (key === undefined) throw new Error(`unknown key ${name}`);
    return key;
  });
}
