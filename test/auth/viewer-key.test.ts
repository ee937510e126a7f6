import { describe, expect, it } from 'vitest';
import { roleCapabilities, toPrincipal, viewerKey, type Principal } from '../../src/auth/capabilities.js';

describe('viewerKey', () => {
  it('is equal for callers who see alike, and differs when what they may see differs', () => {
    const key = (user: Parameters<typeof toPrincipal>[0]) => viewerKey(toPrincipal(user));
    expect(key({ id: 3, roles: ['editor'] })).toBe(key({ id: 3, roles: ['editor'] }));
    expect(key({ id: 3, roles: ['editor', 'author'] })).toBe(key({ id: 3, roles: ['author', 'editor'] }));
    expect(key({ id: 3, roles: ['editor'] })).not.toBe(key({ id: 4, roles: ['editor'] }));
    expect(key({ id: 3, roles: ['editor'] })).not.toBe(key({ id: 3, roles: ['author'] }));
    expect(key({ id: 3, roles: ['author'] })).not.toBe(key({ id: 3, roles: ['author'], capabilities: ['read_private_tribe_events'] }));
    // Names with separators in them do not run into each other.
    expect(key({ id: 3, capabilities: ['a;b'] })).not.toBe(key({ id: 3, capabilities: ['a', 'b'] }));
    expect(key({ id: 3, capabilities: ['a,b'] })).not.toBe(key({ id: 3, capabilities: ['a', 'b'] }));
    expect(key({ id: 3, roles: ['editor'] })).not.toBe(key({ id: 3, capabilities: ['editor'] }));
    expect(viewerKey(null)).toBe('');
  });

  it('keys a principal made elsewhere by its capabilities, apart from any made from a user', () => {
    const made: Principal = { id: 3, capabilities: new Set(roleCapabilities('editor')) };
    const same: Principal = { id: 3, capabilities: new Set([...roleCapabilities('editor')].reverse()) };
    expect(viewerKey(made)).toBe(viewerKey(same));
    expect(viewerKey(made)).not.toBe(viewerKey({ id: 3, capabilities: new Set(roleCapabilities('author')) }));
    expect(viewerKey(made)).not.toBe(viewerKey(toPrincipal({ id: 3, roles: ['editor'] })));
  });

  it('hands out each role’s capabilities as a copy', () => {
    const first = roleCapabilities('editor');
    first.push('mutated');
    expect(roleCapabilities('editor')).not.toContain('mutated');
  });
});
