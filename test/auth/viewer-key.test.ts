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

  it('is made once per user object while its id, roles and capabilities stay', () => {
    const user: { id: number; roles: string[]; capabilities?: string[] } = { id: 3, roles: ['author'] };
    const first = toPrincipal(user);
    expect(toPrincipal(user)).toBe(first);
    expect(first?.capabilities.has('edit_published_tribe_events')).toBe(true);
    expect(first?.capabilities.has('edit_others_tribe_events')).toBe(false);
    // Another object alike gets a principal of its own (its hooks see that object).
    expect(toPrincipal({ id: 3, roles: ['author'] })).not.toBe(first);
    // The same object changed in place is expanded again: roles, capabilities, id.
    user.roles.push('editor');
    const promoted = toPrincipal(user);
    expect(promoted?.capabilities.has('edit_others_tribe_events')).toBe(true);
    expect(viewerKey(promoted)).not.toBe(viewerKey(first));
    user.capabilities = ['manage_options'];
    expect(toPrincipal(user)?.capabilities.has('manage_options')).toBe(true);
    user.id = 4;
    expect(toPrincipal(user)?.id).toBe(4);
    // A role unknown to one calendar is reported to each that meets it.
    const stranger = { id: 5, roles: ['gardener'] };
    const told: string[] = [];
    toPrincipal(stranger, (role) => told.push(`a:${role}`));
    toPrincipal(stranger, (role) => told.push(`b:${role}`));
    expect(told).toEqual(['a:gardener', 'b:gardener']);
  });

  it('hands out each role’s capabilities as a copy', () => {
    const first = roleCapabilities('editor');
    first.push('mutated');
    expect(roleCapabilities('editor')).not.toContain('mutated');
  });
});
