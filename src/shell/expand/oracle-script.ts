// The oracle's bash (oracle.ts): a loop that reads requests as NUL-separated fields (a count, the
// operation, its arguments) and answers each with NUL-separated fields (a count first). Only the
// functions below are ever called; arguments arrive in variables, never as code, except a pattern,
// which the caller built from quoted text and glob characters alone and checked (inertPattern).
//
// Every request that matches or globs carries the shell's state that bears on it: the options
// (a space-separated list of the shopts that are on, among MANAGED) and the locale variables
// (LC_ALL, LC_CTYPE, LC_COLLATE, LANG, each "=value" or "" for unset).
export const MANAGED_SHOPTS = [
  'dotglob',
  'nocaseglob',
  'extglob',
  'globstar',
  'nocasematch',
  'globasciiranges',
  'globskipdots',
];

export const ORACLE_SCRIPT = `set +o history 2>/dev/null
shopt -s nullglob
__sr_reply() { printf '%s\\0' "\${#__r[@]}" "\${__r[@]}"; }
__sr_state() {
  local o
  for o in ${MANAGED_SHOPTS.join(' ')}; do
    case " $1 " in *" $o "*) shopt -s "$o" ;; *) shopt -u "$o" ;; esac 2>/dev/null
  done
  __sr_var LC_ALL "$2"; __sr_var LC_CTYPE "$3"; __sr_var LC_COLLATE "$4"; __sr_var LANG "$5"
}
__sr_var() { if [[ $2 == =* ]]; then export "$1=\${2#=}"; else unset "$1"; fi; }
__sr_op_glob() {
  __r=()
  cd -- "\${__a[1]}" 2>/dev/null || { __sr_reply; return; }
  # (GLOBIGNORE first: setting it turns dotglob on and unsetting it off, as in any bash.)
  if [[ \${__a[7]} == =* ]]; then GLOBIGNORE=\${__a[7]#=}; else unset GLOBIGNORE; fi
  __sr_state "\${__a[@]:2:5}"
  # (A for list, not an array's: a pattern such as [1]=b is a word there, not an element's assignment.)
  eval "for __f in \${__a[8]}; do __r+=(\\"\\$__f\\"); done"
  unset GLOBIGNORE
  __sr_reply
}
__sr_op_match() {
  local __v=\${__a[1]} __i
  __sr_state "\${__a[@]:2:5}"
  for ((__i = 7; __i < \${#__a[@]}; __i++)); do
    if eval "[[ \\$__v == \${__a[__i]} ]]"; then __r=("$((__i - 7))"); __sr_reply; return; fi
  done
  __r=(-1); __sr_reply
}
__sr_op_strip() {
  local __v=\${__a[1]}
  __sr_state "\${__a[@]:2:5}"
  eval "__r=( \\"\\\${__v\${__a[7]}\${__a[8]}}\\" )"
  __sr_reply
}
__sr_op_subst() {
  local __v=\${__a[1]} __s
  __sr_state "\${__a[@]:2:5}"
  if [[ \${__a[9]} == - ]]; then eval "__s=\\\${__v\${__a[7]}\${__a[8]}}"
  else eval "__s=\\\${__v\${__a[7]}\${__a[8]}/\${__a[9]#=}}"; fi
  __r=("$__s"); __sr_reply
}
__sr_op_case() {
  local __v=\${__a[1]} __s
  __sr_state "\${__a[@]:2:5}"
  eval "__s=\\\${__v\${__a[7]}\${__a[8]}}"
  __r=("$__s"); __sr_reply
}
__sr_op_regex() {
  local __v=\${__a[1]} __re=\${__a[7]}
  __sr_state "\${__a[@]:2:5}"
  [[ $__v =~ $__re ]]
  __r=("$?" "\${BASH_REMATCH[@]}"); __sr_reply
}
__sr_op_collate() {
  __sr_state "" "\${__a[@]:3:4}"
  if [[ \${__a[1]} < \${__a[2]} ]]; then __r=('<'); elif [[ \${__a[1]} > \${__a[2]} ]]; then __r=('>'); else __r=('='); fi
  __sr_reply
}
__sr_op_transform() {
  local __v=\${__a[1]} __s
  __sr_state "" "\${__a[@]:3:4}"
  case \${__a[2]} in
    Q) __s=\${__v@Q} ;; E) __s=\${__v@E} ;; U) __s=\${__v@U} ;; u) __s=\${__v@u} ;; L) __s=\${__v@L} ;;
    upper) __s=\${__v^^} ;; lower) __s=\${__v,,} ;; q) printf -v __s %q "$__v" ;;
  esac
  __r=("$__s"); __sr_reply
}
__sr_op_printf() {
  local __s __st
  __sr_state "" "\${__a[@]:3:4}"
  __sr_var TZ "\${__a[7]}"
  if [[ \${__a[8]} == -v ]]; then
    printf -v __s -- "\${__a[@]:10}" 2>"\${__a[2]}"; __st=$?
    printf '%s' "$__s" >"\${__a[1]}"
  else
    printf -- "\${__a[@]:9}" >"\${__a[1]}" 2>"\${__a[2]}"; __st=$?
  fi
  __r=("$__st"); __sr_reply
}
__sr_op_help() {
  help "\${__a[@]:3}" >"\${__a[1]}" 2>"\${__a[2]}"
  __r=("$?"); __sr_reply
}
__sr_op_tilde() {
  local __s
  if [[ \${__a[1]} =~ ^[A-Za-z0-9._][A-Za-z0-9._-]*$ ]]; then eval "__s=~\${__a[1]}"; else __s=\\~\${__a[1]}; fi
  __r=("$__s"); __sr_reply
}
while IFS= read -r -d '' __n; do
  __a=()
  for ((__i = 0; __i < __n; __i++)); do IFS= read -r -d '' "__a[__i]"; done
  case \${__a[0]} in
    glob|match|strip|subst|case|regex|collate|transform|tilde|printf|help) "__sr_op_\${__a[0]}" ;;
    *) __r=(); __sr_reply ;;
  esac
done`;
