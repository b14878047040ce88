import type { Settings } from '../types.js';
import { defaultSettings } from './derive.js';

// Defaults, with the reason for each in docs/; derived from SETTINGS_TABLE (src/settings/table.ts)
// so that the CLI, spec files and the library agree.
export const DEFAULT_SETTINGS: Settings = defaultSettings();
