/**
 * Representative theme variables for the contrast test: the values VS Code gives its webviews as `--vscode-*` in its
 * default themes Dark Modern, Light Modern and Dark High Contrast. They are the themes' defaults, taken from
 * extensions/theme-defaults/themes/{dark,light}_modern.json (VS Code 1.8x–1.9x releases) and, for colours those files
 * do not set, from the colour registry defaults (src/vs/platform/theme/common/colors/*.ts and testing's colors).
 * A colour the registry leaves null in a theme is not set as a variable: written `transparent` here where it is a
 * background (the element shows what is under it).
 */
export type ThemeVars = Readonly<Record<string, string>>;

const v = (colors: Record<string, string>): ThemeVars =>
  Object.fromEntries(Object.entries(colors).map(([k, c]) => [`--vscode-${k.replace(/\./g, '-')}`, c]));

export const DARK_MODERN: ThemeVars = v({
  foreground: '#CCCCCC',
  descriptionForeground: '#9D9D9D',
  errorForeground: '#F85149',
  focusBorder: '#0078D4',
  'editor.background': '#1F1F1F',
  'editorWidget.background': '#202020',
  'textBlockQuote.background': '#2B2B2B',
  'textLink.foreground': '#4daafc',
  'textLink.activeForeground': '#4daafc',
  'icon.foreground': '#CCCCCC',
  'editorHoverWidget.background': '#202020', // registry: editorWidget.background
  'editorHoverWidget.foreground': '#CCCCCC', // registry: editorWidget.foreground = foreground
  'button.foreground': '#FFFFFF',
  'button.background': '#0078D4',
  'button.secondaryForeground': '#CCCCCC',
  'button.secondaryBackground': '#00000000',
  'inputValidation.warningBackground': '#352A05',
  'badge.foreground': '#F8F8F8',
  'badge.background': '#616161',
  'statusBarItem.warningForeground': '#FFFFFF',
  'statusBarItem.warningBackground': '#7A6400', // registry: darken(editorWarning.foreground, 0.4)
  'editorWarning.foreground': '#CCA700',
  'editorInfo.foreground': '#3794FF',
  'testing.iconPassed': '#73c991',
  'charts.blue': '#3794FF',
  'charts.orange': '#d18616',
  'charts.green': '#89D185',
  'charts.purple': '#B180D7',
  'charts.yellow': '#CCA700',
  'charts.red': '#F14C4C',
});

export const LIGHT_MODERN: ThemeVars = v({
  foreground: '#3B3B3B',
  descriptionForeground: '#3B3B3B',
  errorForeground: '#F85149',
  focusBorder: '#005FB8',
  'editor.background': '#FFFFFF',
  'editorWidget.background': '#F8F8F8',
  'textBlockQuote.background': '#F8F8F8',
  'textLink.foreground': '#005FB8',
  'textLink.activeForeground': '#005FB8',
  'icon.foreground': '#3B3B3B',
  'editorHoverWidget.background': '#F8F8F8',
  'editorHoverWidget.foreground': '#3B3B3B',
  'button.foreground': '#FFFFFF',
  'button.background': '#005FB8',
  'button.secondaryForeground': '#3B3B3B',
  'button.secondaryBackground': '#E5E5E5',
  'inputValidation.warningBackground': '#F6F5D2',
  'badge.foreground': '#3B3B3B',
  'badge.background': '#CCCCCC',
  'statusBarItem.warningForeground': '#FFFFFF',
  'statusBarItem.warningBackground': '#735202', // registry: darken(editorWarning.foreground, 0.4)
  'editorWarning.foreground': '#BF8803',
  'editorInfo.foreground': '#1a85ff',
  'testing.iconPassed': '#73c991',
  'charts.blue': '#1a85ff',
  'charts.orange': '#d18616',
  'charts.green': '#388A34',
  'charts.purple': '#652D90',
  'charts.yellow': '#BF8803',
  'charts.red': '#E51400',
});

export const HIGH_CONTRAST_DARK: ThemeVars = v({
  foreground: '#FFFFFF',
  descriptionForeground: '#FFFFFFB3', // registry: transparent(foreground, 0.7)
  errorForeground: '#F48771',
  focusBorder: '#F38518',
  contrastBorder: '#6FC3DF',
  'editor.background': '#000000',
  'editorWidget.background': '#0C141F',
  'textBlockQuote.background': 'transparent',
  'textLink.foreground': '#21A6FF',
  'textLink.activeForeground': '#21A6FF',
  'icon.foreground': '#FFFFFF',
  'editorHoverWidget.background': '#0C141F',
  'editorHoverWidget.foreground': '#FFFFFF',
  'button.foreground': '#FFFFFF',
  'button.background': 'transparent',
  'button.secondaryForeground': '#FFFFFF',
  'button.secondaryBackground': 'transparent',
  'inputValidation.warningBackground': '#000000',
  'badge.foreground': '#FFFFFF',
  'badge.background': '#000000',
  'statusBarItem.warningForeground': '#FFFFFF', // statusBarItem.warningBackground: null, so not set
  'editorWarning.foreground': '#FFD370',
  'editorInfo.foreground': '#3794FF',
  'testing.iconPassed': '#73c991',
  'charts.blue': '#3794FF',
  'charts.orange': '#AB5A00', // registry: minimap.findMatchHighlight
  'charts.green': '#89D185',
  'charts.purple': '#B180D7',
  'charts.yellow': '#FFD370',
  'charts.red': '#F48771',
});

export const THEMES: ReadonlyArray<{ name: string; vars: ThemeVars }> = [
  { name: 'Dark Modern', vars: DARK_MODERN },
  { name: 'Light Modern', vars: LIGHT_MODERN },
  { name: 'Dark High Contrast', vars: HIGH_CONTRAST_DARK },
];
