# ap_layer(NAME MODULES module... HEADERS header... [REQUIRES layer...]
#          DESCRIPTION text)
#
# One layer of the library: libarmprof-NAME.a and libarmprof-NAME.so, built
# once from the same objects (position-independent, so the archive links
# into PIE executables and shared objects too), and armprof-NAME.pc.
#
# - MODULES: lib/<module>/ directories; each CMakeLists.txt there adds its
#   sources with target_sources(${AP_LAYER_OBJS} PRIVATE ...) and an
#   external library with ap_layer_link(lib...).
# - HEADERS: the layer's public headers under include/armprof/. Only what
#   they declare with AP_API is exported (tests/api checks it).
# - REQUIRES: the layers whose headers this layer's headers include; linked
#   PUBLIC and named in the .pc file's Requires.
#
# Targets: armprof_NAME_static and armprof_NAME_shared. lib/ is a private
# include directory of the layer: a user of the library sees include/ only.
function(ap_layer name)
  cmake_parse_arguments(L "" "DESCRIPTION" "MODULES;HEADERS;REQUIRES" ${ARGN})
  set(AP_LAYER_OBJS armprof_${name}_objs)
  add_library(${AP_LAYER_OBJS} OBJECT)
  target_include_directories(${AP_LAYER_OBJS}
    PUBLIC $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
    PRIVATE ${CMAKE_SOURCE_DIR}/lib)
  set_target_properties(${AP_LAYER_OBJS} PROPERTIES
    C_VISIBILITY_PRESET hidden POSITION_INDEPENDENT_CODE ON)
  foreach(module ${L_MODULES})
    add_subdirectory(${CMAKE_SOURCE_DIR}/lib/${module} ${CMAKE_BINARY_DIR}/lib/${module})
  endforeach()

  add_library(armprof_${name}_static STATIC)
  add_library(armprof_${name}_shared SHARED)
  set(pc_requires "")
  foreach(req ${L_REQUIRES})
    target_link_libraries(armprof_${name}_static PUBLIC armprof_${req}_static)
    target_link_libraries(armprof_${name}_shared PUBLIC armprof_${req}_shared)
    list(APPEND pc_requires armprof-${req})
  endforeach()
  foreach(kind static shared)
    set(t armprof_${name}_${kind})
    # Linking the object library puts its objects into this target and
    # passes on its external libraries (ap_layer_link).
    target_link_libraries(${t} PRIVATE ${AP_LAYER_OBJS})
    target_include_directories(${t} PUBLIC
      $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    set_target_properties(${t} PROPERTIES OUTPUT_NAME armprof-${name})
  endforeach()
  set_target_properties(armprof_${name}_shared PROPERTIES
    VERSION ${PROJECT_VERSION} SOVERSION 0)
  if(NOT ARMPROF_SANITIZE AND NOT ARMPROF_FUZZ)
    # Every symbol the shared library uses is resolved by what it links.
    target_link_options(armprof_${name}_shared PRIVATE -Wl,-z,defs)
  endif()

  # pkg-config: relocatable (the prefix is found from where the file is).
  file(RELATIVE_PATH AP_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  string(REGEX REPLACE "/$" "" AP_PC_TO_PREFIX "${AP_PC_TO_PREFIX}")
  set(AP_PC_NAME armprof-${name})
  set(AP_PC_DESCRIPTION "${L_DESCRIPTION}")
  list(JOIN pc_requires " " AP_PC_REQUIRES)
  set(AP_PC_LIBS "-L\${libdir} -larmprof-${name}")
  get_target_property(ext ${AP_LAYER_OBJS} AP_LINK_LIBS)
  set(AP_PC_LIBS_PRIVATE "")
  if(ext)
    foreach(lib ${ext})
      string(APPEND AP_PC_LIBS_PRIVATE " -l${lib}")
    endforeach()
  endif()
  configure_file(${CMAKE_SOURCE_DIR}/cmake/armprof.pc.in ${CMAKE_BINARY_DIR}/armprof-${name}.pc @ONLY)

  install(TARGETS armprof_${name}_static armprof_${name}_shared
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${CMAKE_BINARY_DIR}/armprof-${name}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  list(TRANSFORM L_HEADERS PREPEND ${CMAKE_SOURCE_DIR}/include/armprof/)
  install(FILES ${L_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/armprof)
  # For tests/api: which headers each shared library exports.
  set_property(GLOBAL APPEND PROPERTY AP_LAYERS ${name})
  set_property(GLOBAL PROPERTY AP_LAYER_HEADERS_${name} ${L_HEADERS})
endfunction()

# In lib/<module>/CMakeLists.txt: external libraries (by their -l name) the
# module's layer links privately; they appear in its .pc file's Libs.private.
function(ap_layer_link)
  target_link_libraries(${AP_LAYER_OBJS} PUBLIC ${ARGN})
  set_property(TARGET ${AP_LAYER_OBJS} APPEND PROPERTY AP_LINK_LIBS ${ARGN})
endfunction()
