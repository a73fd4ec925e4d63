"""Who holds which role is looked up in one place, leagues/permissions.py (docs/architecture.md, "Where each
rule lives"): the checks, the lists of a user's leagues, clubs and events, and whom to tell. A page, a service
or an e-mail that queried roles itself would answer differently the day the rule changes (a deputy secretary,
a role that expires)."""

import ast

from tests.paths import REPO

# the modules that may name Role.objects or a roles__ lookup, and why
ALLOWED = {
    "leagues/permissions.py": "the one place of role look-ups",
    "leagues/services/people.py": "writes roles (invitations, changes, removals) and lists a league's people",
    "leagues/services/leagues.py": "the creator of a league becomes its organiser",
    "leagues/notifications.py": "the invitation e-mail reads the role it is about, by its id",
    "leagues/management/commands/load_demo.py": "the demo's organiser and secretaries",
}


def role_lookups(source: str) -> list[int]:
    """The lines of `source` that query roles: Role.objects, or a roles__ lookup of a user query."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "objects":
            value = node.value
            name = value.attr if isinstance(value, ast.Attribute) else getattr(value, "id", None)
            if name == "Role":
                lines.append(node.lineno)
        elif isinstance(node, ast.keyword) and (node.arg or "").startswith("roles__"):
            lines.append(node.value.lineno)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("roles__"):
            lines.append(node.lineno)
    return sorted(lines)


def test_role_lookups_are_found():
    source = (
        "def f(user):\n"
        "    a = Role.objects.filter(user=user)\n"
        "    b = models.Role.objects.all()\n"
        "    c = User.objects.filter(roles__kind='secretary')\n"
        "    return Role.Kind.SECRETARY\n"
    )
    assert role_lookups(source) == [2, 3, 4]


def test_roles_are_looked_up_in_permissions_only():
    found = {}
    for path in sorted((REPO / "leagues").rglob("*.py")) + sorted((REPO / "config").rglob("*.py")):
        relative = path.relative_to(REPO).as_posix()
        if "migrations" in path.parts or relative in ALLOWED:
            continue
        lines = role_lookups(path.read_text(encoding="utf-8"))
        if lines:
            found[relative] = lines
    assert found == {}
