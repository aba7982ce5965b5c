/** What a Selenium Grid node offers: one Chromium, driven by one chromedriver. */
export interface ChromeNodeSettings {
  /** the Chromium binary the node starts for each session (goog:chromeOptions.binary) */
  chromiumPath: string;
  /** the chromedriver binary matching that Chromium */
  chromedriverPath: string;
  /** sessions the node runs at once */
  maxSessions: number;
  /** flags the node adds to every Chromium it starts */
  chromeArgs: string[];
}

/** A TOML basic string: JSON's string escapes are valid TOML escapes for the characters we write. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

/**
 * The standalone server's TOML config for one Chromium node (see the Selenium docs, "TOML configuration
 * options"). Drivers are not detected: the node offers exactly the configured Chromium, with the
 * chromedriver given here, so Selenium Manager never tries to download one (there is no internet).
 */
export function gridConfigToml(host: string, port: number, node: ChromeNodeSettings): string {
  const stereotype = {
    browserName: 'chrome',
    platformName: 'linux',
    'goog:chromeOptions': { binary: node.chromiumPath, args: node.chromeArgs },
  };
  return [
    '[server]',
    `host = ${tomlString(host)}`,
    `port = ${port}`,
    '',
    '[node]',
    'detect-drivers = false',
    'selenium-manager = false',
    // Slots above the core count would only make the sessions slow each other down: the caller decides.
    'override-max-sessions = true',
    `max-sessions = ${node.maxSessions}`,
    '',
    '[[node.driver-configuration]]',
    'display-name = "chromium"',
    `max-sessions = ${node.maxSessions}`,
    `webdriver-executable = ${tomlString(node.chromedriverPath)}`,
    `stereotype = ${tomlString(JSON.stringify(stereotype))}`,
    '',
  ].join('\n');
}
